package io.jobguard.benchmarks;

import io.jobguard.FireTimeSchedule;
import io.jobguard.FiringBody;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The contenders of {@link FiringBenchmark}: one lock per firing each, taken and given back on the same private
 * Redis, from job-guard's scheduler-thread path down to the bounds (one plain command, one empty script, the
 * two-round-trip floor and the smallest fenced lock made of scripts) and the peers (ShedLock, Redisson).
 */
final class FiringContenders {

    private static final String UNLOCK = "if redis.call('GET', KEYS[1]) == ARGV[1] then "
            + "return redis.call('DEL', KEYS[1]) else return 0 end";
    /**
     * The least a fenced lock made of scripts does: take the lease with {@code SET NX PX} and the next fencing
     * token with {@code INCR}, in one script (a plain pipeline could hand out a token without the lease).
     */
    private static final String FENCED_LOCK = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then "
            + "return redis.call('INCR', KEYS[2]) else return 0 end";

    private FiringContenders() {
    }

    /** One contender: one firing per call; parts it reports besides its whole latency. */
    interface Contender {
        void fire(int i, long[][] partLatencies) throws Exception;

        /**
         * Untimed, after each firing: brings the contender to where the next firing of a real schedule
         * finds it (nothing by default).
         */
        default void settle() {
        }
    }

    /**
     * Creates every contender, in the order the rounds start from.
     *
     * @param redis    a plain Lettuce connection (the bounds and the floors)
     * @param guard    job-guard's engine on {@code store}
     * @param store    job-guard's Redis store
     * @param factory  the connection factory of {@code store} and of ShedLock's provider
     * @param redisson the Redisson client
     * @return the contenders by name
     */
    static Map<String, Contender> create(RedisCommands<String, String> redis, JobGuard guard, RedisLeaseStore store,
                                         LettuceConnectionFactory factory, RedissonClient redisson) {
        Map<String, Contender> contenders = new LinkedHashMap<>();
        long start = System.currentTimeMillis() - Duration.ofDays(1).toMillis();
        JobOptions job = JobOptions.builder("bench-job", Duration.ofSeconds(30)).build();
        contenders.put("jobguard-scheduler-thread", new Contender() {
            @Override
            public void fire(int i, long[][] part) {
                long t0 = System.nanoTime();
                FiringPermit permit = guard.admit(job, Instant.ofEpochMilli(start + i)).permit();
                part[0][i] = System.nanoTime() - t0;
                permit.finish(null);
            }

            /**
             * finish() writes the release to the store's shared connection and returns without waiting
             * for it. Fired back to back, the next acquire would queue behind that release and time it too;
             * on a real schedule a job's firings are a period apart (a second at least) and the release has
             * long been answered. One TIME on the same shared connection, answered after the release, waits
             * for it here, untimed (its Redis CPU is in this contender's column, not in the ratios).
             */
            @Override
            public void settle() {
                try (RedisConnection connection = factory.getConnection()) {
                    connection.serverCommands().time();
                }
            }
        });

        // The same firing through JobGuard.fire, without and with the accounting of fire times nobody ran (a misfire
        // policy that catches up nothing: the run record's gap check rides on the acquire); each on a 1 ms grid, so
        // every firing finds its predecessor handled, as a job's firings on a real schedule do
        FireTimeSchedule everyMillisecond = after -> after.truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
        fired(contenders, "jobguard-fire", guard, factory, start + 2_000_000_000L,
                JobOptions.builder("bench-fire", Duration.ofSeconds(30)).build());
        fired(contenders, "jobguard-fire-accounted", guard, factory, start + 3_000_000_000L,
                JobOptions.builder("bench-fire-accounted", Duration.ofSeconds(30))
                        .recovery(RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP).schedule(everyMillisecond)
                                .build())
                        .build());

        JobId storeJob = new JobId("default", "bench-store-job");
        long storeStart = start + 1_000_000_000L;
        contenders.put("jobguard-acquire-release", (i, part) -> {
            // the run history at its defaults (2,000 entries, 14 days), as an application keeps it
            RunLeaseRequest r = new RunLeaseRequest(storeJob, Instant.ofEpochMilli(storeStart + i), UUID.randomUUID().toString(),
                    "bench", Duration.ofSeconds(30), Duration.ofMinutes(1), JobGuardConfig.DEFAULT_HISTORY_SIZE,
                    Duration.ofMinutes(1), JobGuardConfig.DEFAULT_HISTORY_RETENTION);
            store.acquireRun(r);
            store.releaseRun(r, Duration.ZERO);
        });

        String acquireSha = redis.scriptLoad(LuaScript.load("run-acquire").source());
        KeySchema keys = new KeySchema("benchraw");
        // 512 jobs in turn, each lease 1 ms: a job's lease has expired by its next turn (512 firings, many
        // milliseconds later), so no untimed DEL adds to the Redis CPU of this contender
        List<JobId> rawJobs = new ArrayList<>();
        for (int j = 0; j < 512; j++) {
            rawJobs.add(new JobId("default", "bench-raw-job-" + j));
        }
        long rawStart = start + 2_000_000_000L;
        contenders.put("acquire-script-evalsha", (i, part) -> {
            long nominalFireTimeMillis = rawStart + i;
            JobId rawJob = rawJobs.get(i % rawJobs.size());
            String[] k = keys.runAcquire(rawJob, Instant.ofEpochMilli(nominalFireTimeMillis)).toArray(String[]::new);
            List<Object> reply = redis.evalsha(acquireSha, ScriptOutputType.MULTI, k, "owner-" + i, "bench",
                    Long.toString(nominalFireTimeMillis), "1", "90000", "", "60000", "0", "", "", "", "", "", "", "", "20", "",
                    "");
            if (!"ACQUIRED".equals(reply.get(0))) {
                throw new IllegalStateException("acquire script answered " + reply);
            }
        });

        // What Redis spends on any one round trip (reading the request, writing the reply) and on any
        // one script call, whatever the script does: the bounds below which no design of the two calls goes
        contenders.put("one-command-set", (i, part) -> redis.set("bench-one-command", "v", SetArgs.Builder.px(30_000)));
        String emptySha = redis.scriptLoad("return 1");
        contenders.put("empty-script-evalsha", (i, part) -> redis.evalsha(emptySha, ScriptOutputType.INTEGER, new String[0]));

        String unlockSha = redis.scriptLoad(UNLOCK);
        contenders.put("floor-setnx-cad", (i, part) -> {
            String token = Long.toString(i);
            redis.set("bench-floor", token, SetArgs.Builder.nx().px(30_000));
            redis.evalsha(unlockSha, ScriptOutputType.INTEGER, new String[] {"bench-floor"}, token);
        });

        // The smallest fenced lock that scripts can make on Redis 7.0 (no compare-and-delete command): the lease
        // and a fencing token in one script, the owner-checked release in another. No record of fire times, no
        // history: what any design keeping job-guard's guarantees costs at least, with its two script calls.
        String fencedLockSha = redis.scriptLoad(FENCED_LOCK);
        String[] fencedKeys = {"bench-fenced-lease", "bench-fenced-counter"};
        contenders.put("floor-fenced-scripts", (i, part) -> {
            String token = Long.toString(i);
            Long fence = redis.evalsha(fencedLockSha, ScriptOutputType.INTEGER, fencedKeys, token);
            if (fence == null || fence == 0) {
                throw new IllegalStateException("the fenced-lock floor found its lease taken");
            }
            redis.evalsha(unlockSha, ScriptOutputType.INTEGER, new String[] {fencedKeys[0]}, token);
        });

        RedisLockProvider shedLock = new RedisLockProvider.Builder(factory).environment("bench").build();
        contenders.put("shedlock-default", (i, part) -> shedLockFiring(shedLock, "bench-shedlock"));
        RedisLockProvider shedLockSafe = new RedisLockProvider.Builder(factory).environment("bench").safeUpdate(true).build();
        contenders.put("shedlock-safeupdate", (i, part) -> shedLockFiring(shedLockSafe, "bench-shedlock-safe"));

        RLock rLock = redisson.getLock("bench-rlock");
        contenders.put("redisson-rlock", (i, part) -> {
            rLock.lock(30, TimeUnit.SECONDS);
            rLock.unlock();
        });
        return contenders;
    }

    private static void shedLockFiring(RedisLockProvider provider, String name) {
        SimpleLock lock = provider.lock(new LockConfiguration(Instant.now(), name, Duration.ofSeconds(30), Duration.ZERO))
                .orElseThrow(() -> new IllegalStateException("ShedLock refused an uncontended lock " + name));
        lock.unlock();
    }

    /** A contender firing {@code job} through {@link JobGuard#fire} with an empty body, settled like the scheduler thread's. */
    private static void fired(Map<String, Contender> contenders, String name, JobGuard guard,
                              LettuceConnectionFactory factory, long start, JobOptions job) {
        FiringBody<Object> body = FiringBody.of(() -> null);
        contenders.put(name, new Contender() {
            @Override
            public void fire(int i, long[][] part) throws Exception {
                try {
                    guard.fire(job, Instant.ofEpochMilli(start + i), body);
                } catch (Exception | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void settle() {
                try (RedisConnection connection = factory.getConnection()) {
                    connection.serverCommands().time();
                }
            }
        });
    }
}
