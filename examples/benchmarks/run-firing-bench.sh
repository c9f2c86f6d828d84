#!/usr/bin/env bash
# One guarded firing beside its peers (issue 19): job-guard, the SET NX PX + compare-and-delete floor,
# one EVALSHA of run-acquire.lua, ShedLock's RedisLockProvider (default and safeUpdate) and Redisson's
# RLock, in alternating order on a private redis-server the benchmark starts itself.
#   examples/benchmarks/run-firing-bench.sh              # 21 rounds x 1,000 firings, about 2 minutes
#   ROUNDS=10 FIRINGS=5000 examples/benchmarks/run-firing-bench.sh
# Writes docs/benchmarks/data/firing.csv and firing-latency.csv and prints the medians and ratios.
# Link mode: every contender's connection through a proxy adding 0.5 ms per round trip (0.25 ms each way),
# back to back and a period apart (20 ms between firings); writes docs/benchmarks/data/firing-link*.csv:
#   ROUNDS=11 FIRINGS=500 examples/benchmarks/run-firing-bench.sh --link-delay-ms 0.5 --apart-firings 100
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/classpath.sh"
cd "$root"
java -cp "$cp" io.jobguard.benchmarks.FiringBenchmark "${ROUNDS:-21}" "${FIRINGS:-1000}" docs/benchmarks/data "$@"
