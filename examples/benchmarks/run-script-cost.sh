#!/usr/bin/env bash
# What Redis spends on one script call, inside the command and in all, back to back and 20 ms apart: one SET,
# an empty script, the six commands of a granted acquire alone, and run-acquire.lua (ScriptCallCost).
#   examples/benchmarks/run-script-cost.sh [rounds (7)] [calls back to back (2000)] [calls apart (100)]
# Writes docs/benchmarks/data/script-cost.csv. Needs: JDK 17+, Maven, redis-server on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/target"
if [ "${SKIP_BUILD:-}" != 1 ]; then
  (cd "$root" && mvn -B -q -ntp ${MVN_OPTS:-} -pl examples/benchmarks -am install -DskipTests -Djobguard.skipJavadoc=true >/dev/null)
  (cd "$here" && mvn -B -q -ntp ${MVN_OPTS:-} dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null)
fi
cp="$here/target/classes:$(cat "$here/target/cp.txt")"
cd "$root"
java -cp "$cp" io.jobguard.benchmarks.ScriptCallCost "${1:-7}" "${2:-2000}" "${3:-100}" docs/benchmarks/data
