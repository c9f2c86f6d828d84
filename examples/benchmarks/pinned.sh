# Sourced by the run-*.sh benchmarks. On a small machine the benchmark's client threads and Redis share
# the cores, so Redis is often descheduled in the middle of a command and SLOWLOG then reports the
# operating system's scheduling (we saw a single-key DEL "take" 2.3 ms), not the command's cost. When
# taskset is there and the machine has 2 or more cores, bench_java runs every redis-server the benchmark
# starts on core 0 and the JVM on the other cores. JOBGUARD_BENCH_PIN=0 turns it off.
bench_java() {
  local cores
  cores="$(nproc 2>/dev/null || echo 1)"
  if [ "${JOBGUARD_BENCH_PIN:-1}" != 0 ] && [ "$cores" -ge 2 ] && command -v taskset >/dev/null 2>&1 \
      && command -v redis-server >/dev/null 2>&1; then
    local wrappers
    wrappers="$(mktemp -d)"
    printf '#!/bin/sh\nexec taskset -c 0 %s "$@"\n' "$(command -v redis-server)" > "$wrappers/redis-server"
    chmod +x "$wrappers/redis-server"
    echo "benchmark: redis-server pinned to core 0, the JVM to cores 1-$((cores - 1)) (JOBGUARD_BENCH_PIN=0 to turn off)" >&2
    PATH="$wrappers:$PATH" taskset -c "1-$((cores - 1))" java "$@"
  else
    java "$@"
  fi
}
