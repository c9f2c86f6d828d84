#!/usr/bin/env bash
# One command: 3 Spring Boot nodes with scheduler clocks at -2 s, 0 and +3 s share one Redis for
# 30 s (--seconds N); prints who ran each nominal fire time, batch-lock counts and the actuator output.
# Needs JDK 17+ and Maven only (Redis: redis-server on PATH, else Docker, else an embedded binary).
# Builds in the Maven reactor and installs nothing into ~/.m2.
# Exit status: 0 no fire time ran twice; 1 a fire time ran twice (a broken guarantee);
#              2 the demo could not run (build failed, no Redis, a node did not start), with a sentence.
#   examples/run-demo.sh [--seconds N]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/examples/cluster-demo"
echo "building job-guard and the demo (first run downloads dependencies)..."
if ! (cd "$root" && mvn -B -q -ntp -pl examples/cluster-demo -am package org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath \
      -Dmdep.outputFile=target/classpath.txt -DskipTests -Djobguard.skipJavadoc=true \
      -Djobguard.test.embedded.skip=true); then
  echo "DEMO COULD NOT RUN (exit 2, not a job-guard failure): the Maven build above failed"
  exit 2
fi
exec java -cp "$module/target/classes:$(cat "$module/target/classpath.txt")" \
  io.jobguard.examples.demo.DemoRunner "$@"
