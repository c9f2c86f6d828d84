#!/usr/bin/env bash
# The fleet benchmark (issue 19 item 3): K simulated nodes x J every-second jobs on one private
# redis-server per size; Redis CPU, bytes and latency per decision, memory per job, key count after
# the markers' TTL, longest command. Writes docs/benchmarks/data/fleet.csv.
#   examples/benchmarks/run-fleet-bench.sh [sizes (2x1000,20x500,50x1000)] [decisions per size (200000)]
# Needs: JDK 17+, Maven, redis-server on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/target"
# Built in one reactor, so the benchmark runs against this checkout's job-guard-core, not ~/.m2's.
(cd "$root" && mvn -B -q -pl examples/benchmarks -am compile dependency:build-classpath \
  -Dmdep.outputFile="$here/target/cp-fleet.txt" -Djobguard.skipJavadoc=true ${MVN_OPTS:-} >/dev/null)
cp="$here/target/classes:$(cat "$here/target/cp-fleet.txt")"
cd "$root"
. "$here/pinned.sh"
bench_java -cp "$cp" io.jobguard.benchmarks.FleetBenchmark "${1:-2x1000,20x500,50x1000}" "${2:-200000}" docs/benchmarks/data
