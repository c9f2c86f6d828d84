#!/usr/bin/env bash
# Three plain Quartz schedulers (RAMJobStore), one of them slow, guarded by job-guard: prints who
# ran each nominal fire time. Needs JDK 17+ and Maven only.   examples/run-quartz-demo.sh [--seconds N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/examples/quartz-demo"
(cd "$root" && mvn -B -q -ntp -pl examples/quartz-demo -am install -DskipTests -Djobguard.skipJavadoc=true)
(cd "$module" && mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
exec java -cp "$module/target/classes:$(cat "$module/target/classpath.txt")" \
  io.jobguard.examples.quartz.QuartzDemo "$@"
