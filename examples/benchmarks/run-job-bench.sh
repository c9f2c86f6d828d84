#!/usr/bin/env bash
# Measures one guarded run's acquire + release (median, p99) against a fresh redis-server on a
# free loopback port, beside ShedLock's Redis provider and a SET NX PX + compare-and-delete floor.
#   ./run-job-bench.sh                      # short settings, about 1 minute
#   JMH_OPTS="-wi 3 -i 5 -w 2s -r 5s -f 2" ./run-job-bench.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/target/bench"
mkdir -p "$out"
JMH_OPTS="${JMH_OPTS:--wi 2 -i 3 -w 2s -r 3s -f 1}"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
  --pidfile "$out/redis-job.pid" --logfile "$out/redis-job.log" --dir "$out"
trap 'kill "$(cat "$out/redis-job.pid")" 2>/dev/null || true' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done

(cd "$root" && mvn -B -q -pl examples/benchmarks -am install -DskipTests -Dmaven.javadoc.skip >/dev/null)
(cd "$here" && mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null)
cp="$here/target/classes:$(cat "$here/target/cp.txt")"

java -cp "$cp" org.openjdk.jmh.Main 'JobLeaseBenchmark' $JMH_OPTS -jvmArgs "-Djobguard.bench.port=$port" \
  -rf csv -rff "$out/job-lease.csv" | tee "$out/job-lease.txt" \
  | grep -E '^(Benchmark|JobLeaseBenchmark\.[a-zA-Z]+(:p0.50|:p0.99)? )' || true
