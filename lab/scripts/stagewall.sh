#!/bin/bash
# stagewall.sh CORPUS ROUNDS BINARY... runs `BINARY dedup CORPUS` (the default method) for each
# binary in turn, ROUNDS times, and prints per run the wall and CPU time and peak RSS of the whole
# run (/usr/bin/time) and each stage's wall and CPU seconds from stats.json, with the load average:
# binaries compared in one session on a shared machine.
set -euo pipefail
corpus=$1 rounds=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq $rounds); do for bin in "$@"; do
rm -rf "$out/o"; /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" dedup "$corpus" -o "$out/o" -q
python3 - "$bin" "$out" <<'PY'
import json,sys
out=sys.argv[2]
st=json.load(open(out+'/o/stats.json')); w,u,s,m=open(out+'/time').read().split()
print("%-14s wall %5.1f cpu %5.1f rss %5d | wall sketch %5.2f match %5.2f write %5.2f | cpu sketch %5.1f match %5.1f | load %s" % (sys.argv[1], float(w), float(u)+float(s), int(m)//1024,
 st['seconds']['read_and_sketch'], st['seconds']['candidates_verify_group'], st['seconds']['write'], st['cpu_seconds']['read_and_sketch'], st['cpu_seconds']['candidates_verify_group'], open('/proc/loadavg').read().split()[0]))
PY
done; done
