#!/bin/bash
# instrs.sh CORPUS ROUNDS BINARY... counts the machine instructions `BINARY dedup CORPUS` (the default
# method, GOMAXPROCS=1, GOGC=off) executes, under valgrind's lackey tool, for each binary in turn,
# ROUNDS times. On a shared machine, whose wall and CPU times vary by 10–20 % from run to run,
# instruction counts vary far less: the measure for changes too small to see in time. The collector
# is off because when it runs varies from run to run, and with it about 1 % of the count; so the
# count leaves out the collector's work. Valgrind runs the program some fifty times slower, so CORPUS
# should be small (a few thousand documents).
set -euo pipefail
corpus=$1 rounds=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq "$rounds"); do for bin in "$@"; do
	rm -rf "$out/o"
	n=$(GOMAXPROCS=1 GOGC=off valgrind --tool=lackey --basic-counts=yes "$bin" dedup "$corpus" -o "$out/o" -q 2>&1 |
		sed -n 's/.*guest instrs: *\([0-9,]*\).*/\1/p' | tr -d ,)
	printf '%-16s %6.1f M instructions\n' "$bin" "$(echo "$n / 1000000" | bc -l)"
done; done
