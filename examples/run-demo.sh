#!/usr/bin/env bash
# One command: 3 Spring Boot nodes with scheduler clocks at -2 s, 0 and +3 s share one Redis for
# about 30 s; prints who ran each nominal fire time, batch-lock counts and the actuator output.
# Needs JDK 17+ and Maven only (Redis: redis-server on PATH, else Docker, else an embedded binary).
#   examples/run-demo.sh [--seconds N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/examples/cluster-demo"
echo "building job-guard and the demo (first run downloads dependencies)..."
(cd "$root" && mvn -B -q -ntp -pl examples/cluster-demo -am install -DskipTests -Djobguard.skipJavadoc=true)
(cd "$module" && mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
exec java -cp "$module/target/classes:$(cat "$module/target/classpath.txt")" \
  io.jobguard.examples.demo.DemoRunner "$@"
