#!/usr/bin/env bash
# Batch locks on a 1-master vs a 3-master local Redis Cluster, one hash tag vs spread mode (issue 19):
# each master's share of the Redis CPU, Redis CPU per batch key, projected throughput for M masters, and
# the longest Redis command (SLOWLOG) including a 100,000-key batch. Writes
# docs/benchmarks/data/batch-masters.csv and docs/benchmarks/data/slowlog.csv.
#   ./run-batch-masters.sh [batches per configuration (1000)] [client threads (4)]
# Needs: JDK 17+, Maven, redis-server on PATH (the clusters are started and stopped by the benchmark).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/target"
# Built in one reactor, so the benchmark runs against this checkout's job-guard-core, not ~/.m2's.
(cd "$root" && mvn -B -q -pl examples/benchmarks -am compile dependency:build-classpath \
  -Dmdep.outputFile="$here/target/cp-masters.txt" -Djobguard.skipJavadoc=true ${MVN_OPTS:-} >/dev/null)
cp="$here/target/classes:$(cat "$here/target/cp-masters.txt")"
cd "$root"
. "$here/pinned.sh"
bench_java -cp "$cp" io.jobguard.benchmarks.BatchMastersBenchmark "${1:-1000}" "${2:-4}" docs/benchmarks/data
