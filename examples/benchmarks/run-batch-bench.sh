#!/usr/bin/env bash
# Runs the batch-lock benchmarks against a fresh redis-server on a free loopback port and prints
# the ratio tables. Short settings by default; for publishable numbers raise the JMH options, e.g.
#   JMH_OPTS="-wi 3 -i 10 -w 2s -r 2s -f 2" ./run-batch-bench.sh
# Needs: JDK 17+, Maven, redis-server on PATH. Nothing here runs during `mvn verify`.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/target/bench"
mkdir -p "$out"
JMH_OPTS="${JMH_OPTS:--wi 1 -i 3 -w 1s -r 1s -f 1}"
SIZES="${SIZES:-10,100,1000,3000,10000}"

if command -v python3 >/dev/null; then
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
else
  port=$((20000 + RANDOM % 20000))
fi
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
  --pidfile "$out/redis.pid" --logfile "$out/redis.log" --dir "$out"
trap 'kill "$(cat "$out/redis.pid")" 2>/dev/null || true' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
echo "redis-server $(redis-server --version | awk '{print $3}') on port $port"

(cd "$root" && mvn -B -q -pl examples/benchmarks -am install -DskipTests -Dmaven.javadoc.skip >/dev/null)
(cd "$here" && mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null)
cp="$here/target/classes:$(cat "$here/target/cp.txt")"
jvm="-Djobguard.bench.port=$port"

java -cp "$cp" org.openjdk.jmh.Main 'BatchLockBenchmark' -p n="$SIZES" $JMH_OPTS -jvmArgs "$jvm" \
  -rf csv -rff "$out/latency.csv" | tee "$out/latency.txt" | grep -E '^(Benchmark|BatchLockBenchmark)' || true
java -cp "$cp" org.openjdk.jmh.Main 'ContentionBenchmark' $JMH_OPTS -jvmArgs "$jvm" \
  -rf csv -rff "$out/contention.csv" | tee "$out/contention.txt" | grep -E '^(Benchmark|ContentionBenchmark)' || true
java -cp "$cp" $jvm io.jobguard.benchmarks.RedisCpuPerKey 3000 20 > "$out/cpu.csv"
# job-guard beside the one-hash, string and SET NX PX floors at N = 3000, interleaved, on a server of its own.
(cd "$root" && java -cp "$cp" io.jobguard.benchmarks.BatchFloors 3000 21 10 docs/benchmarks/data)
# Batch time vs N, every contender, median of 5 rotating rounds: the data of the log-log chart.
(cd "$root" && java -cp "$cp" $jvm io.jobguard.benchmarks.BatchTimeVsN 5 docs/benchmarks/data/batch-n.csv)

echo
echo "== acquire+release of N keys, ms/op (JMH average), and ratio to the raw floor =="
awk -F, 'NR > 1 {
  gsub(/"/, ""); gsub(/\r/, ""); split($1, b, "\\."); name = b[length(b)]; n = $NF; score[name, n] = $5; names[name]; sizes[n]
} END {
  printf "%-30s", "contender"; for (n in sizes) order[++k] = n + 0
  asort(order); for (i = 1; i <= k; i++) printf "%22s", "N=" order[i]; printf "\n"
  for (name in names) {
    printf "%-30s", name
    for (i = 1; i <= k; i++) { n = order[i]; f = score["rawFloor", n]; s = score[name, n]
      printf "%22s", sprintf("%.3f (%.1fx)", s, (f > 0 ? s / f : 0)) }
    printf "\n"
  }
}' "$out/latency.csv"

echo
echo "== contention: 8 threads, fail-fast 100-key batches from 2,000 keys; successful acquisitions/s =="
awk -F, 'NR > 1 { gsub(/"/, ""); gsub(/\r/, ""); if ($1 ~ /:acquired$/) { split($1, b, "[.:]"); printf "%-30s %12.1f\n", b[length(b) - 1], $5 } }' \
  "$out/contention.csv"

echo
echo "== Redis server CPU per key at N=3000 (INFO cpu deltas), microseconds, ratio to the raw floor =="
awk -F, '{ gsub(/\r/, ""); cpu[$1] = $2; order[++k] = $1 } END {
  for (i = 1; i <= k; i++) printf "%-30s %10.3f  (%.2fx)\n", order[i], cpu[order[i]], cpu[order[i]] / cpu["rawFloor"] }' "$out/cpu.csv"
