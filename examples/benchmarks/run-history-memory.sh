#!/usr/bin/env bash
# Redis memory of the run history (HistoryMemory): bytes per entry (MEMORY USAGE ... SAMPLES 0), a job's list at its
# largest, and 1,000 jobs at the defaults (100 every second, 300 every minute, 600 hourly):
#   examples/benchmarks/run-history-memory.sh [history size (2000)] [retention in days (14)]
# Needs: JDK 17+, Maven, redis-server on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/classpath.sh"
cd "$root"
java -cp "$cp" io.jobguard.benchmarks.HistoryMemory "${1:-2000}" "${2:-14}"
