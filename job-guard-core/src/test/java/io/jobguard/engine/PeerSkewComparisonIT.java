package io.jobguard.engine;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed-004 problem side by side: three nodes whose clocks differ by more than a run lasts fire
 * the same schedule. A lock keyed by the job name only (ShedLock's Redis provider, lockAtLeastFor
 * 0) lets the late nodes take the freed lock and run the same firing again; job-guard, keyed by the
 * nominal fire time, runs each firing once. Same Redis, same timings, same job body.
 */
@WithRedis
class PeerSkewComparisonIT {

    private static final long[] SKEW_MILLIS = {0, 150, 300};
    private static final int FIRE_TIMES = 12;
    private static final long PERIOD_MILLIS = 100;

    private final LettuceConnectionFactory factory;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private ScheduledExecutorService scheduler;

    PeerSkewComparisonIT(RedisServerProcess redis) {
        this.factory = redis.connectionFactory();
    }

    @BeforeEach
    void startScheduler() {
        scheduler = Executors.newScheduledThreadPool(SKEW_MILLIS.length * 2);
    }

    @AfterEach
    void stop() throws Exception {
        scheduler.shutdownNow();
        for (AutoCloseable c : closeables) {
            c.close();
        }
        factory.destroy();
    }

    @Test
    void aNameKeyedLockRunsFiringsTwiceUnderSkewWhereJobGuardRunsEachOnce() throws Exception {
        LockingTaskExecutor shedLock = new DefaultLockingTaskExecutor(new RedisLockProvider(factory, "peer"));
        Map<Instant, AtomicInteger> shedLockPerFiring = new ConcurrentHashMap<>();
        fire((node, t) -> shedLock.executeWithLock((Runnable) () ->
                        shedLockPerFiring.computeIfAbsent(t, x -> new AtomicInteger()).incrementAndGet(),
                new LockConfiguration(Instant.now(), "report", Duration.ofSeconds(30), Duration.ZERO)));

        Map<Instant, AtomicInteger> jobGuardPerFiring = new ConcurrentHashMap<>();
        List<JobGuard> guards = new ArrayList<>();
        for (int n = 0; n < SKEW_MILLIS.length; n++) {
            RedisLeaseStore store = RedisLeaseStore.create(factory, "peer");
            JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder()
                    .nodeId("node-" + n).build()).build());
            closeables.add(store);
            closeables.add(guard);
            guards.add(guard);
        }
        JobOptions job = JobOptions.builder("report", Duration.ofSeconds(30)).build();
        fire((node, t) -> guards.get(node).run(job, t,
                () -> jobGuardPerFiring.computeIfAbsent(t, x -> new AtomicInteger()).incrementAndGet()));

        long shedLockDuplicates = shedLockPerFiring.values().stream().filter(c -> c.get() > 1).count();
        long jobGuardDuplicates = jobGuardPerFiring.values().stream().filter(c -> c.get() > 1).count();
        System.out.printf("[measure] %d firings, 3 nodes skewed 0/150/300 ms: ShedLock ran %d firings more than once,"
                + " job-guard %d%n", FIRE_TIMES, shedLockDuplicates, jobGuardDuplicates);
        assertThat(shedLockDuplicates).as("the peer's flaw this test demonstrates").isPositive();
        assertThat(jobGuardDuplicates).isZero();
        assertThat(jobGuardPerFiring).hasSize(FIRE_TIMES);
    }

    /** Node n fires firing k at k * period + skew(n), like schedulers on clocks offset by skew. */
    private void fire(BiConsumer<Integer, Instant> firing) throws Exception {
        Instant base = Instant.parse("2026-11-22T00:00:00Z");
        List<Future<?>> futures = new ArrayList<>();
        for (int n = 0; n < SKEW_MILLIS.length; n++) {
            int node = n;
            for (int k = 0; k < FIRE_TIMES; k++) {
                Instant t = base.plusMillis(k * PERIOD_MILLIS);
                futures.add(scheduler.schedule(() -> firing.accept(node, t), k * PERIOD_MILLIS + SKEW_MILLIS[n],
                        TimeUnit.MILLISECONDS));
            }
        }
        for (Future<?> f : futures) {
            f.get(20, TimeUnit.SECONDS);
        }
    }
}
