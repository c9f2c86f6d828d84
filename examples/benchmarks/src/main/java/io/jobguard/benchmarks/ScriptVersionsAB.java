package io.jobguard.benchmarks;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.internal.redis.run.RunAcquireArguments;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Compares two versions of the firing's scripts (run-acquire.lua and run-release.lua, each after prelude.lua) on one
 * private redis-server, as Redis CPU per firing: each round runs every version's granted acquire and release of fresh
 * jobs, the versions in alternating order, each on a flushed server, and reads Redis' own time spent in EVALSHA
 * ({@code INFO commandstats}). The arguments are the ones this checkout's store builds, so both versions must take
 * the same KEYS and ARGV. Prints each round and the median of the per-round ratios new/old; the spread of that ratio
 * between two copies of one version (a control run) is the noise to compare it with.
 *
 * <p>By default each firing is of a fresh job. With a number of jobs (the fifth argument), the firings cycle over that
 * many jobs, and each version's history of every job is first filled to its own history size (the sixth argument,
 * {@code <old size>:<new size>}, default {@code 20:20}): the steady state of jobs that fire for good, each version with
 * its own size, as a long-running application has them.
 */
public final class ScriptVersionsAB {

    private ScriptVersionsAB() {
    }

    /**
     * Runs the comparison.
     *
     * @param args the old scripts' folder, the new scripts' folder, rounds (21), firings per version and round (3000),
     *             jobs (0: a fresh job per firing), history sizes {@code <old>:<new>} (20:20)
     * @throws Exception if Redis cannot be started or a call does not grant and release
     */
    public static void main(String[] args) throws Exception {
        Path[] folders = {Path.of(args[0]), Path.of(args[1])};
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 21;
        int firings = args.length > 3 ? Integer.parseInt(args[3]) : 3_000;
        int jobs = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        String[] sizes = (args.length > 5 ? args[5] : "20:20").split(":");
        int[] historySizes = {Integer.parseInt(sizes[0]), Integer.parseInt(sizes[1])};
        Method argv = RunAcquireArguments.class.getDeclaredMethod("argv");
        argv.setAccessible(true);
        Method strip = Class.forName("io.jobguard.internal.redis.LuaScript")
                .getDeclaredMethod("withoutCommentLines", String.class);
        strip.setAccessible(true);
        KeySchema keys = new KeySchema("ab");
        try (PrivateRedis server = PrivateRedis.start()) {
            RedisClient client = RedisClient.create(RedisURI.create(BenchRedis.HOST, server.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                String[][] sha = new String[2][2];
                for (int v = 0; v < 2; v++) {
                    String prelude = Files.readString(folders[v].resolve("prelude.lua"));
                    sha[v][0] = redis.scriptLoad((String) strip.invoke(null,
                            prelude + Files.readString(folders[v].resolve("run-acquire.lua"))));
                    sha[v][1] = redis.scriptLoad((String) strip.invoke(null,
                            prelude + Files.readString(folders[v].resolve("run-release.lua"))));
                }
                List<Double> ratios = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    double[] perFiring = new double[2];
                    for (int k = 0; k < 2; k++) {
                        int v = round % 2 == 0 ? k : 1 - k;
                        redis.flushall();
                        for (int j = 0; j < jobs; j++) {
                            fill(redis, keys, new JobId("ab", "v" + v + "-r" + round + "-j" + j), historySizes[v]);
                        }
                        long before = evalshaMicros(redis);
                        for (int i = 0; i < firings; i++) {
                            JobId job = new JobId("ab", jobs > 0 ? "v" + v + "-r" + round + "-j" + (i % jobs)
                                    : "v" + v + "-r" + round + "-i" + i);
                            fire(redis, sha[v], keys, argv, job, Instant.ofEpochMilli(FIRST + i * 1_000L),
                                    historySizes[v]);
                        }
                        perFiring[v] = (evalshaMicros(redis) - before) / (double) firings;
                    }
                    ratios.add(perFiring[1] / perFiring[0]);
                    System.out.printf("round %2d: old %.2f us, new %.2f us of Redis CPU per firing, new/old %.3f%n",
                            round + 1, perFiring[0], perFiring[1], perFiring[1] / perFiring[0]);
                }
                Collections.sort(ratios);
                System.out.printf("median new/old over %d rounds of %d firings each: %.3f%n", rounds, firings,
                        ratios.get(rounds / 2));
            } finally {
                client.shutdown();
            }
        }
    }

    /** The first fire time: a day before now, so the history's retention (14 days) keeps every entry written. */
    private static final long FIRST = System.currentTimeMillis() - 86_400_000L;

    /** Fills a job's history to its size with entries of the release's format, oldest last (LPUSH in batches). */
    private static void fill(RedisCommands<String, String> redis, KeySchema keys, JobId job, int size) {
        String key = keys.of(job, KeySchema.JobKey.HISTORY);
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            long fireTime = FIRST - (size - i) * 1_000L;
            batch.add("o|RAN|5|jg1|token-fill-" + i + "|" + fireTime + "|" + (fireTime + 3) + "|" + (i + 1) + "|n1");
            if (batch.size() == 1_000 || i == size - 1) {
                redis.lpush(key, batch.toArray(new String[0]));
                batch.clear();
            }
        }
    }

    /** One granted acquire and its release, as RedisLeaseStore sends them for a regular firing. */
    private static void fire(RedisCommands<String, String> redis, String[] sha, KeySchema keys, Method argv, JobId job,
                             Instant fireTime, int historySize) throws ReflectiveOperationException {
        RunLeaseRequest request = new RunLeaseRequest(job, fireTime, "token-" + job.name() + "-" + fireTime.toEpochMilli(),
                "n1", Duration.ofSeconds(30), Duration.ofMinutes(5), historySize);
        @SuppressWarnings("unchecked")
        List<String> acquireArgs = (List<String>) argv.invoke(new RunAcquireArguments(request, AcquireMode.REGULAR, "",
                new LossWindows.Window(-1, 300_000), "0", "", false));
        List<Object> reply = redis.evalsha(sha[0], ScriptOutputType.MULTI,
                keys.runAcquire(job, fireTime).toArray(new String[0]), acquireArgs.toArray(new String[0]));
        if (!"ACQUIRED".equals(String.valueOf(reply.get(0)))) {
            throw new IllegalStateException("acquire of " + job + " answered " + reply);
        }
        Long released = redis.evalsha(sha[1], ScriptOutputType.INTEGER, keys.runRelease(job).toArray(new String[0]),
                request.ownerToken(), "0", keys.releaseChannel(), keys.runReleaseTopic(job), "RAN", "5",
                Integer.toString(historySize), "1", "", Long.toString(Duration.ofDays(14).toMillis()), "", "");
        if (released == null || released != 1L) {
            throw new IllegalStateException("release of " + job + " answered " + released);
        }
    }

    private static long evalshaMicros(RedisCommands<String, String> redis) {
        for (String line : redis.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (field.startsWith("usec=")) {
                        return Long.parseLong(field.substring("usec=".length()));
                    }
                }
            }
        }
        return 0;
    }
}
