#!/usr/bin/env bash
# Three plain Quartz schedulers (RAMJobStore), one of them slow, guarded by job-guard: prints who
# ran each nominal fire time. Needs JDK 17+ and Maven only.   examples/run-quartz-demo.sh [--seconds N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/examples/quartz-demo"
# Builds in the Maven reactor and installs nothing into ~/.m2.
(cd "$root" && mvn -B -q -ntp -pl examples/quartz-demo -am package \
  org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath -Dmdep.outputFile=target/classpath.txt \
  -DskipTests -Djobguard.skipJavadoc=true -Djobguard.test.embedded.skip=true)
exec java -cp "$module/target/classes:$(cat "$module/target/classpath.txt")" \
  io.jobguard.examples.quartz.QuartzDemo "$@"
