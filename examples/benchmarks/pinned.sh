# Sourced by the run-*.sh benchmarks. On a small machine the benchmark's client threads and Redis share
# the cores, so Redis is often descheduled in the middle of a command and SLOWLOG then reports the
# operating system's scheduling (we saw a single-key DEL "take" 2.3 ms), not the command's cost. When
# taskset is there and the machine has 2 or more cores, bench_java runs every redis-server the benchmark
# starts on core 0 and the JVM on the other cores. Where the user may (root or CAP_SYS_NICE), the
# redis-servers also run under the real-time policy SCHED_FIFO (chrt -f 1): no ordinary process preempts
# one in the middle of a command, and two of them on core 0 (a local 3-master Cluster) take turns at
# the end of a command, never inside one, so SLOWLOG measures the commands. Redis only waits for its
# clients between commands, so this does not change what a command costs (Redis CPU is measured the
# same way either way). JOBGUARD_BENCH_PIN=0 turns both off; JOBGUARD_BENCH_FIFO=0 only the real-time policy.
bench_java() {
  local cores
  cores="$(nproc 2>/dev/null || echo 1)"
  if [ "${JOBGUARD_BENCH_PIN:-1}" != 0 ] && [ "$cores" -ge 2 ] && command -v taskset >/dev/null 2>&1 \
      && command -v redis-server >/dev/null 2>&1; then
    local wrappers launcher
    wrappers="$(mktemp -d)"
    launcher="taskset -c 0"
    if [ "${JOBGUARD_BENCH_FIFO:-1}" != 0 ] && command -v chrt >/dev/null 2>&1 && chrt -f 1 true 2>/dev/null; then
      launcher="chrt -f 1 taskset -c 0"
      echo "benchmark: redis-server under SCHED_FIFO (JOBGUARD_BENCH_FIFO=0 to turn off)" >&2
    fi
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$launcher" "$(command -v redis-server)" > "$wrappers/redis-server"
    chmod +x "$wrappers/redis-server"
    echo "benchmark: redis-server pinned to core 0, the JVM to cores 1-$((cores - 1)) (JOBGUARD_BENCH_PIN=0 to turn off)" >&2
    PATH="$wrappers:$PATH" taskset -c "1-$((cores - 1))" java "$@"
  else
    java "$@"
  fi
}
