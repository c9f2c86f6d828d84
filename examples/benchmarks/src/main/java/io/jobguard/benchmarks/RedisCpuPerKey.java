package io.jobguard.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.openjdk.jmh.infra.Blackhole;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Redis server CPU per key (user + system, from {@code INFO cpu} deltas) of one acquire+release of
 * N keys, for each contender of {@link BatchLockBenchmark}. Arguments: N (default 3000) and the
 * repetitions (default 20; the slow Redisson multi-lock runs a fifth of them). Prints
 * {@code name,cpuMicrosPerKey} lines.
 */
public final class RedisCpuPerKey {

    private RedisCpuPerKey() {
    }

    /**
     * Runs the measurement.
     *
     * @param args N and repetitions
     * @throws Exception if a contender fails
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        BatchLockBenchmark bench = new BatchLockBenchmark();
        bench.n = n;
        bench.setUp();
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        Map<String, ThrowingRunnable> contenders = new LinkedHashMap<>();
        contenders.put("rawFloor", () -> bench.rawFloor(bh));
        contenders.put("hashFloor", () -> bench.hashFloor(bh));
        contenders.put("msetnxFloor", () -> bench.msetnxFloor(bh));
        contenders.put("jobGuard", bench::jobGuard);
        contenders.put("redissonFastMultiLock", bench::redissonFastMultiLock);
        contenders.put("redissonMultiLock", bench::redissonMultiLock);
        contenders.put("seed000PipelinedSetnxExpire", () -> bench.seed000PipelinedSetnxExpire(bh));
        contenders.put("lockRegistryLoop", bench::lockRegistryLoop);
        RedisClient client = BenchRedis.lettuce();
        try (StatefulRedisConnection<String, String> info = client.connect()) {
            for (Map.Entry<String, ThrowingRunnable> c : contenders.entrySet()) {
                int r = c.getKey().equals("redissonMultiLock") ? Math.max(1, reps / 5) : reps;
                c.getValue().run();
                double before = RedisInfo.cpuSeconds(info.sync().info("cpu"));
                for (int i = 0; i < r; i++) {
                    c.getValue().run();
                }
                double after = RedisInfo.cpuSeconds(info.sync().info("cpu"));
                System.out.printf("%s,%.3f%n", c.getKey(), (after - before) * 1e6 / ((double) r * n));
            }
        } finally {
            client.shutdown();
            bench.tearDown();
        }
    }

    /** A contender's one acquire+release. */
    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
