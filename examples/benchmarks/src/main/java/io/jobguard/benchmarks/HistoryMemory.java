package io.jobguard.benchmarks;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.store.JobId;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Redis memory of job-guard's run history, measured on a private redis-server: the bytes one entry takes
 * ({@code MEMORY USAGE ... SAMPLES 0} of a job's list at its largest, divided by its entries), for a run that ran and for one that
 * threw with a message of the longest kept length (200 characters); the largest list a job holds at the default size
 * (size + 31 entries between two trims); and the memory of 1,000 jobs at the defaults (size 2,000, retention 14 days)
 * in a mix of 100 every-second, 300 every-minute and 600 hourly jobs ({@code INFO memory}'s used_memory before and
 * after). Entries are written in the release's own format with a real owner token (a UUID), a node id of 28
 * characters and fencing tokens of 6 digits.
 */
public final class HistoryMemory {

    private static final String NODE = "billing-7f9c4-node-3.prod:48213";
    private static final String MESSAGE = "Read timed out while waiting for the ledger service at https://ledger.internal/"
            + "v2/postings?batch=" + "x".repeat(200);

    private HistoryMemory() {
    }

    /**
     * Runs the measurement.
     *
     * @param args the history size (2000) and the retention in days (14)
     * @throws Exception if Redis cannot be started
     */
    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        int retentionDays = args.length > 1 ? Integer.parseInt(args[1]) : 14;
        int largest = size + 31;
        KeySchema keys = new KeySchema("jobguard");
        try (PrivateRedis server = PrivateRedis.start()) {
            RedisClient client = RedisClient.create(RedisURI.create(BenchRedis.HOST, server.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                String ran = keys.of(new JobId("shop", "ran"), KeySchema.JobKey.HISTORY);
                String failed = keys.of(new JobId("shop", "failed"), KeySchema.JobKey.HISTORY);
                fill(redis, ran, largest, 1_000L, false);
                fill(redis, failed, largest, 1_000L, true);
                long ranBytes = memoryUsage(redis, ran);
                long failedBytes = memoryUsage(redis, failed);
                System.out.printf("redis-server %s%n", redis.info("server").lines()
                        .filter(l -> l.startsWith("redis_version:")).findFirst().orElse("?"));
                System.out.printf("one entry (ran): %.1f bytes; a job's list at its largest (%d entries): %d bytes ="
                        + " %.3f MiB%n", ranBytes / (double) largest, largest, ranBytes, ranBytes / 1048576.0);
                System.out.printf("one entry (threw, %d-character message): %.1f bytes; at its largest: %d bytes ="
                        + " %.3f MiB%n", 200, failedBytes / (double) largest, failedBytes, failedBytes / 1048576.0);
                redis.flushall();

                long before = usedMemory(redis);
                long entries = 0;
                int hourly = Math.min(largest, retentionDays * 24 + 31);
                int minute = Math.min(largest, retentionDays * 1440 + 31);
                int second = Math.min(largest, retentionDays * 86_400 + 31);
                for (int j = 0; j < 1_000; j++) {
                    int kept = j < 100 ? second : j < 400 ? minute : hourly;
                    long period = j < 100 ? 1_000L : j < 400 ? 60_000L : 3_600_000L;
                    fill(redis, keys.of(new JobId("shop", "job-" + j), KeySchema.JobKey.HISTORY), kept, period, false);
                    entries += kept;
                }
                long after = usedMemory(redis);
                System.out.printf("1,000 jobs at size %d, retention %d days (100 every second: %d entries each, 300"
                                + " every minute: %d, 600 hourly: %d): %d entries, used_memory +%d bytes = %.1f MiB%n",
                        size, retentionDays, second, minute, hourly, entries, after - before,
                        (after - before) / 1048576.0);
            } finally {
                client.shutdown();
            }
        }
    }

    /** A job's list of {@code n} entries, newest first, one a period apart, as run-release.lua writes them. */
    private static void fill(RedisCommands<String, String> redis, String key, int n, long period, boolean threw) {
        long now = System.currentTimeMillis();
        List<String> batch = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            long fireTime = now - i * period;
            String lease = "jg1|" + UUID.randomUUID() + "|" + fireTime + "|" + (fireTime + 7) + "|" + (100_000 + n - i)
                    + "|" + NODE;
            batch.add(threw ? "f1|FAILED|1834|java.net.SocketTimeoutException|" + MESSAGE.substring(0, 200) + "|" + lease
                    : "o|RAN|" + (200 + i % 700) + "|" + lease);
            if (batch.size() == 1_000 || i == 0) {
                redis.lpush(key, batch.toArray(new String[0]));
                batch.clear();
            }
        }
    }

    /** MEMORY USAGE with SAMPLES 0: every element counted, not an estimate from five. */
    private static long memoryUsage(RedisCommands<String, String> redis, String key) {
        Long bytes = redis.eval("return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')",
                io.lettuce.core.ScriptOutputType.INTEGER, key);
        return bytes;
    }

    private static long usedMemory(RedisCommands<String, String> redis) {
        return redis.info("memory").lines().filter(l -> l.startsWith("used_memory:"))
                .mapToLong(l -> Long.parseLong(l.substring("used_memory:".length()).trim())).findFirst().orElseThrow();
    }
}
