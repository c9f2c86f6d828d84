#!/usr/bin/env bash
# job-guard's batch acquire + release of N keys beside three floors in one run (BatchFloors): Redis CPU
# per key against the one-hash floor (HSET + HDEL of N fields) and the string floor (MSETNX + DEL), wall
# time against the pipelined SET NX PX floor. Writes docs/benchmarks/data/batch-floors*.csv.
#   ./run-batch-floors.sh [N (3000)] [rounds (21)] [operations per contender and round (10)]
# Needs: JDK 17+, Maven, redis-server on PATH (the benchmark starts and stops its own).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/target"
# Built in one reactor, so the benchmark runs against this checkout's job-guard-core, not ~/.m2's.
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  (cd "$root" && mvn -B -q -pl examples/benchmarks -am compile dependency:build-classpath \
    -Dmdep.outputFile="$here/target/cp-floors.txt" -Djobguard.skipJavadoc=true ${MVN_OPTS:-} >/dev/null)
fi
cp="$here/target/classes:$(cat "$here/target/cp-floors.txt")"
cd "$root"
. "$here/pinned.sh"
bench_java -cp "$cp" io.jobguard.benchmarks.BatchFloors "${1:-3000}" "${2:-21}" "${3:-10}" docs/benchmarks/data
