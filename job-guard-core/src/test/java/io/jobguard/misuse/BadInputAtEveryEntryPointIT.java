package io.jobguard.misuse;

import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLocks;
import io.jobguard.batch.BatchRequest;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.shedlock.JobGuardLockProvider;
import io.jobguard.shedlock.ShedLockLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 20, "Done when": every public entry point of the core, given the bad values of rows 5 (key
 * separators in namespaces), 6 (whitespace, a {@code # comment}), 10 (overflowing durations and
 * fire times) and 12 (control characters, sub-millisecond leases), throws an
 * {@link IllegalArgumentException} naming the parameter, and nothing reaches Redis.
 */
@WithRedis
class BadInputAtEveryEntryPointIT {

    private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);
    private static final Duration MICROSECOND = Duration.ofNanos(1_000);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Instant T = Instant.parse("2026-01-01T10:00:00Z");
    /** The README's old Quickstart line, as a .properties file binds it. */
    private static final String COMMENTED = "billing             # defaults to spring.application.name";

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;

    BadInputAtEveryEntryPointIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
    }

    @AfterEach
    void close() {
        connectionFactory.destroy();
    }

    @Test
    void everyEntryPointNamesTheBadParameterAndSendsNothing() throws Exception {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgmisuse");
        NodeConfig n1 = NodeConfig.builder().nodeId("n1").build();
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace("shop").node(n1).build());
        RedisBatchLocks redisLocks = RedisBatchLocks.create(connectionFactory, "jgmisuse", BatchLockConfig.defaults());
        BatchLocks locks = redisLocks;
        JobGuardLockProvider provider = JobGuardLockProvider.builder(connectionFactory).keyPrefix("jgmisuse")
                .namespace("shop").node(n1).build();
        JobGuard shedLockGuard = JobGuard.create(ShedLockLeaseStore.create(provider),
                JobGuardConfig.builder().namespace("shop").node(n1).build());
        JobOptions job = JobOptions.builder("job", LEASE).build();
        List<String> keys = List.of("sku-1");
        redis.resetStats();

        // row 5: key separators in namespaces (namespace 'a:b' + job 'c' met namespace 'a' + job 'b:c')
        for (String ns : List.of("a:b", "a~b", "a|b", "a~shedlock")) {
            rejects(() -> JobGuardConfig.builder().namespace(ns).build(), "namespace '" + ns + "' contains");
            rejects(() -> locks.tryAcquire(ns, keys, LEASE), "batch namespace '" + ns + "' contains");
            rejects(() -> JobGuardLockProvider.builder(connectionFactory).namespace(ns).build(),
                    "JobGuardLockProvider namespace '" + ns + "' contains");
        }

        // row 6: whitespace at the ends, a trailing '# comment'
        for (String ns : List.of(COMMENTED, "billing ", " billing", "bill ing")) {
            rejects(() -> JobGuardConfig.builder().namespace(ns).build(), "namespace '");
            rejects(() -> locks.tryAcquire(ns, keys, LEASE), "batch namespace '");
            rejects(() -> locks.acquire(ns, keys, LEASE, LEASE), "batch namespace '");
            rejects(() -> JobGuardLockProvider.builder(connectionFactory).namespace(ns).build(),
                    "JobGuardLockProvider namespace '");
            rejects(() -> RedisLeaseStore.create(connectionFactory, ns), "keyPrefix '");
            rejects(() -> RedisBatchLocks.create(connectionFactory, ns, BatchLockConfig.defaults()), "keyPrefix '");
            rejects(() -> JobGuardLockProvider.builder(connectionFactory).keyPrefix(ns).build(),
                    "JobGuardLockProvider keyPrefix '");
        }
        rejects(() -> NodeConfig.builder().nodeId("n1 "), "nodeId 'n1 ' starts or ends with whitespace");
        rejects(() -> JobOptions.builder("Reports.nightly ", LEASE), "job name 'Reports.nightly ' starts or ends");
        rejects(() -> JobOptions.builder(" x", LEASE).build(), "job name ' x' starts or ends");
        rejects(() -> provider.lock(new LockConfiguration(T, "lock ", LEASE, Duration.ZERO)),
                "ShedLock lock name 'lock ' starts or ends");

        // row 12: control characters, braces, over-long names
        for (String bad : List.of("a\u0001b", "a\nb", "a{b", "a}b", "x".repeat(201))) {
            String start = bad.length() > 40 ? bad.substring(0, 40) : bad.replace("\u0001", "\\u0001")
                    .replace("\n", "\\u000a");
            rejects(() -> JobGuardConfig.builder().namespace(bad).build(), "namespace '" + start);
            rejects(() -> NodeConfig.builder().nodeId(bad), "nodeId '" + start);
            rejects(() -> JobOptions.builder(bad, LEASE).build(), "job name '" + start);
            rejects(() -> locks.tryAcquire(bad, keys, LEASE), "batch namespace '" + start);
            rejects(() -> RedisLeaseStore.create(connectionFactory, bad), "keyPrefix '" + start);
            rejects(() -> provider.lock(new LockConfiguration(T, bad, LEASE, Duration.ZERO)),
                    "ShedLock lock name '" + start);
        }
        rejects(() -> locks.tryAcquire("sku", keys, MICROSECOND), "batch lease must be at least 1 ms");
        rejects(() -> JobOptions.builder("job", MICROSECOND).build(), "lease of job 'job' must be at least 1 ms");
        rejects(() -> JobGuardConfig.builder().defaultLease(MICROSECOND).build(), "defaultLease must be at least 1 ms");
        rejects(() -> provider.lock(new LockConfiguration(T, "lock", MICROSECOND, Duration.ZERO)),
                "lockAtMostFor of ShedLock lock 'lock' must be at least 1 ms");

        // row 10: overflowing durations and fire times
        rejects(() -> JobOptions.builder("job", HUGE).build(), "lease of job 'job' must be at most 3650 days");
        rejects(() -> JobOptions.builder("job", LEASE).type(GuardType.WAIT).waitFor(HUGE).build(),
                "waitFor of job 'job' must be at most");
        rejects(() -> JobOptions.builder("job", LEASE).cooldown(HUGE).build(), "cooldown of job 'job' must be at most");
        rejects(() -> JobOptions.builder("job", LEASE).busyGrace(HUGE).build(),
                "busyGrace of job 'job' must be at most");
        rejects(() -> JobGuardConfig.builder().defaultLease(HUGE).build(), "defaultLease must be at most");
        rejects(() -> JobGuardConfig.builder().skewTolerance(HUGE).build(), "skewTolerance must be at most");
        rejects(() -> JobGuardConfig.builder().waitPollInterval(HUGE).build(), "waitPollInterval must be at most");
        rejects(() -> BatchLockConfig.builder().waitPollInterval(HUGE).build(),
                "BatchLockConfig.waitPollInterval must be at most");
        rejects(() -> ShedLockLeaseStore.create(provider, Clock.systemUTC(), HUGE),
                "ShedLockLeaseStore pollInterval must be at most");
        for (Instant t : List.of(Instant.MAX, Instant.MIN, Instant.EPOCH.minusMillis(1))) {
            rejects(() -> guard.admit(job, t), "nominal fire time of job 'job' must be between");
            rejects(() -> guard.run(job, t, () -> { }), "nominal fire time of job 'job' must be between");
            rejects(() -> shedLockGuard.admit(job, t), "nominal fire time of job 'job' must be between");
        }
        rejects(() -> locks.tryAcquire("sku", keys, HUGE), "batch lease must be at most");
        rejects(() -> locks.acquire("sku", keys, LEASE, HUGE), "batch waitFor must be at most");
        rejects(() -> locks.acquire(BatchRequest.waiting("sku", keys, HUGE, LEASE)), "batch lease must be at most");
        rejects(() -> provider.lock(new LockConfiguration(T, "lock", Duration.ofDays(365L * 1000), Duration.ZERO)),
                "lockAtMostFor of ShedLock lock 'lock' must be at most");

        Map<String, Long> calls = redis.commandStats();
        assertThat(calls.keySet()).as("nothing but the stats reset reached Redis: %s", calls)
                .allMatch(command -> command.startsWith("config"));
        guard.close();
        shedLockGuard.close();
        redisLocks.close();
        store.close();
    }

    private static void rejects(ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
