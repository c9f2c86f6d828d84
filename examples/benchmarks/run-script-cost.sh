#!/usr/bin/env bash
# What Redis spends on one script call, inside the command and in all, back to back and 20 ms apart: one SET,
# an empty script, the six commands of a granted acquire alone, and run-acquire.lua (ScriptCallCost).
#   examples/benchmarks/run-script-cost.sh [rounds (7)] [calls back to back (2000)] [calls apart (100)]
# Writes docs/benchmarks/data/script-cost.csv. Needs: JDK 17+, Maven, redis-server on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/classpath.sh"
cd "$root"
java -cp "$cp" io.jobguard.benchmarks.ScriptCallCost "${1:-7}" "${2:-2000}" "${3:-100}" docs/benchmarks/data
