#!/bin/bash
# cmpbin.sh METHOD CORPUS ROUNDS BINARY... runs `BINARY dedup CORPUS --method METHOD`
# for each binary in turn, ROUNDS times, and prints per run the wall time, the CPU time
# (user + system), the peak RSS and each stage's CPU seconds from stats.json, with the
# load average: binaries compared in one session on a shared machine.
set -euo pipefail
method=$1 corpus=$2 rounds=$3
shift 3
for _ in $(seq "$rounds"); do
	for bin in "$@"; do
		out=$(mktemp -d)
		/usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" dedup "$corpus" --method "$method" -o "$out/o" -q
		python3 - "$bin" "$out" <<'PY'
import json, sys
bin, out = sys.argv[1], sys.argv[2]
wall, user, sys_, rss = open(out + "/time").read().split()
st = json.load(open(out + "/o/stats.json"))
c = st["cpu_seconds"]
print("%-24s wall %6.1f s  cpu %7.2f s  rss %5d MiB | sketch %6.2f  match %6.2f  write %6.2f | candidates %d | load %s" % (
    bin, float(wall), float(user) + float(sys_), int(rss) // 1024, c["read_and_sketch"],
    c["candidates_verify_group"], c["write"], st.get("candidates_verified", 0), open("/proc/loadavg").read().split()[0]))
PY
		rm -rf "$out"
	done
done
