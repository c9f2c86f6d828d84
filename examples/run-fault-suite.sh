#!/usr/bin/env bash
# The fault suite, one command: per scenario and library (job-guard, ShedLock's Redis provider), a fresh
# private Redis, three Spring Boot node JVMs with scheduler clocks at -2 s, 0 and +3 s, one injected fault,
# per-node ledgers and an independent checker; writes a markdown table and prints its path.
# Needs JDK 17+, Maven and redis-server (on PATH, else the harness's fallbacks). Nothing is installed into
# ~/.m2: the modules are compiled in the reactor and run from their target directories.
#   examples/run-fault-suite.sh [--scenario NAME ...] [--library job-guard|shedlock|both] [--seconds N] [--node-arg ARG ...]
# Scenario names: none sigkill-holder sigstop-holder redis-stop redis-restart client-pause client-kill
#   flushall eviction sentinel-failover cluster-master-kill proxy-delay proxy-drop proxy-blackhole clock-step
#   retry-sigkill retry-sigstop (job-guard only: ShedLock has no retries, its row says n/a)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/examples/fault-suite"
echo "building job-guard and the fault suite (first run downloads dependencies)..."
(cd "$root" && mvn -B -q -ntp -pl examples/fault-suite -am test-compile org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath \
  -Dmdep.outputFile=target/fault-suite-classpath.txt -Djobguard.skipJavadoc=true)
exec java -cp "$module/target/classes:$(cat "$module/target/fault-suite-classpath.txt")" \
  io.jobguard.examples.fault.FaultSuite --out "$module/target/fault-suite" "$@"
