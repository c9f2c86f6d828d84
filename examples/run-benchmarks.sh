#!/usr/bin/env bash
# Every benchmark of docs/benchmarks.md, then its charts and tables, with one command (issue 19):
#   bash examples/run-benchmarks.sh           # the published run, about 36 minutes on 2 cores
#   bash examples/run-benchmarks.sh --quick   # smaller sizes and fewer rounds, a few minutes
# Writes docs/benchmarks/data/*.csv, docs/benchmarks/*.png and the generated tables of
# docs/benchmarks.md. Needs: JDK 17+, Maven, redis-server and redis-cli on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
bench="$here/benchmarks"
quick=false
[ "${1:-}" = "--quick" ] && quick=true

log() { printf '\n[benchmarks] %s\n' "$*"; }

if $quick; then
  log "firing: 5 rounds x 1,000 firings"
  ROUNDS=5 FIRINGS=1000 "$bench/run-firing-bench.sh"
  log "firing across a link adding 0.5 ms per round trip: 3 rounds x (300 back to back + 50 a period apart)"
  SKIP_BUILD=1 ROUNDS=3 FIRINGS=300 "$bench/run-firing-bench.sh" --link-delay-ms 0.5 --apart-firings 50
  log "one script call, inside the command and in all: 3 rounds"
  SKIP_BUILD=1 "$bench/run-script-cost.sh" 3 1000 50
  log "batch time vs N (and the JMH tables): short settings"
  SIZES=10,100,1000,3000 "$bench/run-batch-bench.sh"
  log "batch on 1 vs 3 masters: 100 batches per layout"
  "$bench/run-batch-masters.sh" 100 4
  log "fleet: 2x500, 10x200, 20x500 with 40,000 decisions each"
  "$bench/run-fleet-bench.sh" 2x500,10x200,20x500 40000
  log "capacity: 5 nodes x 100 jobs, 2 s per level, 1, 4 and 16 threads per node, standalone and 1 and 3 masters"
  REPORT=0 "$bench/run-capacity-bench.sh" 5x100 2 --threads 1,4,16 --masters 1,3
else
  log "firing: 21 rounds x 1,000 firings"
  ROUNDS=21 FIRINGS=1000 "$bench/run-firing-bench.sh"
  log "firing across a link adding 0.5 ms per round trip: 11 rounds x (500 back to back + 100 a period apart)"
  SKIP_BUILD=1 ROUNDS=11 FIRINGS=500 "$bench/run-firing-bench.sh" --link-delay-ms 0.5 --apart-firings 100
  log "one script call, inside the command and in all: 7 rounds x (2,000 back to back + 100 20 ms apart)"
  SKIP_BUILD=1 "$bench/run-script-cost.sh" 7 2000 100
  log "batch time vs N (and the JMH tables)"
  "$bench/run-batch-bench.sh"
  log "batch on 1 vs 3 masters: 1,000 batches per layout"
  "$bench/run-batch-masters.sh" 1000 4
  log "fleet: 2x1000 (100,000 fire times), 20x500, 50x1000 with 200,000 decisions each"
  "$bench/run-fleet-bench.sh" 2x1000,20x500,50x1000 200000
  log "capacity: 10 nodes x 200 jobs, 4 s per level, 1 to 32 threads per node, standalone and 1 and 3 masters"
  REPORT=0 "$bench/run-capacity-bench.sh" 10x200 4 --threads 1,2,4,8,16,32 --masters 1,3
fi

log "charts and tables"
cp="$bench/target/classes:$(cat "$bench/target/cp-fleet.txt")"
(cd "$root" && java -cp "$cp" io.jobguard.benchmarks.BenchmarkReport docs/benchmarks/data docs/benchmarks docs/benchmarks.md)
