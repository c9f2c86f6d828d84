#!/usr/bin/env bash
# Redis CPU per firing of two versions of the firing's scripts (run-acquire.lua and run-release.lua after
# prelude.lua), side by side on one private redis-server, in alternating order (ScriptVersionsAB):
#   examples/benchmarks/run-script-ab.sh <old scripts folder> [new scripts folder] [rounds (21)] [firings (3000)]
#     [jobs (0: a fresh job per firing)] [history sizes <old>:<new> (20:20)]
# e.g. the scripts of an earlier commit against this checkout's:
#   git -C . archive 1d03294 job-guard-core/src/main/resources/io/jobguard/redis | tar -x -C /tmp/old
#   examples/benchmarks/run-script-ab.sh /tmp/old/job-guard-core/src/main/resources/io/jobguard/redis
# Both versions must take the KEYS and ARGV this checkout's store builds. Needs: JDK 17+, Maven, redis-server on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/classpath.sh"
cd "$root"
java -cp "$cp" io.jobguard.benchmarks.ScriptVersionsAB "$1" "${2:-$root/job-guard-core/src/main/resources/io/jobguard/redis}" \
  "${3:-21}" "${4:-3000}" "${5:-0}" "${6:-20:20}"
