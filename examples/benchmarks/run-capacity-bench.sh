#!/usr/bin/env bash
# Fleet capacity (issue 31): K nodes x J jobs all contending for every fire time, the offered load (worker threads
# per node) raised level by level; job-guard, ShedLock's RedisLockProvider and Redisson's RLock take turns on the
# same Redis: a private standalone redis-server, then a local Redis Cluster of each --masters size. Prints granted
# firings and decisions per second at saturation, the Redis CPU per firing and the ratios; writes
# docs/benchmarks/data/capacity.csv, capacity-summary.csv and capacity-projection.csv, then regenerates the
# capacity tables and chart of docs/benchmarks.md (REPORT=0 to skip that).
#   examples/benchmarks/run-capacity-bench.sh                     # 10x200, 4 s per level, T=1..32, 1 and 3 masters: ~8 min
#   examples/benchmarks/run-capacity-bench.sh 5x100 2 --threads 1,4,16 --masters 3
#   REPORT=0 examples/benchmarks/run-capacity-bench.sh 10x200 4 --nodes 2,10,30 --threads 4 --masters none --rate 1000
#     # every contender and fleet size paced to the same granted firings per second (capacity-rate1000*.csv)
# Needs: JDK 17+, Maven, redis-server on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/target"
# Built in one reactor, so the benchmark runs against this checkout's job-guard-core (its Lua scripts), not ~/.m2's.
if [ "${SKIP_BUILD:-}" != 1 ]; then
  (cd "$root" && mvn -B -q -ntp -pl examples/benchmarks -am compile dependency:build-classpath \
    -Dmdep.outputFile="$here/target/cp-capacity.txt" -Djobguard.skipJavadoc=true ${MVN_OPTS:-} >/dev/null)
fi
cp="$here/target/classes:$(cat "$here/target/cp-capacity.txt")"
cd "$root"
. "$here/pinned.sh"
echo "capacity: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git describe --always --dirty 2>/dev/null || echo unknown)"
bench_java -cp "$cp" io.jobguard.benchmarks.CapacityBenchmark "${1:-10x200}" "${2:-4}" docs/benchmarks/data "${@:3}"
if [ "${REPORT:-1}" != 0 ]; then
  java -cp "$cp" io.jobguard.benchmarks.BenchmarkReport docs/benchmarks/data docs/benchmarks docs/benchmarks.md capacity
fi
