package io.jobguard.shedlock;

import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ClusterSingleton}'s once-per-fire-time guarantee through the ShedLock bridge, over the
 * JDBC provider: several nodes, each with its own skewed clock, its own provider, store and thread,
 * fire the same nominal fire times at moments that differ as their clocks do (compressed: a second
 * of skew is 10 ms here), so some firings race and some arrive after the run ended.
 */
class ShedLockSkewIT {

    private static final Duration[] SKEW = {Duration.ofSeconds(-3), Duration.ZERO, Duration.ofSeconds(2),
            Duration.ofSeconds(4)};
    private static final int FIRE_TIMES = 20;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    @Test
    void eachFireTimeRunsOnExactlyOneNodeWhateverTheSkew() throws Exception {
        String namespace = "skew-" + UUID.randomUUID().toString().substring(0, 8);
        // WAIT: a firing that finds the run lease busy waits and then runs T or finds T taken, so every
        // T must run exactly once; RETURN would legitimately drop firings that overlap a run.
        JobOptions job = JobOptions.builder("report", Duration.ofSeconds(10)).type(GuardType.WAIT)
                .waitFor(Duration.ofSeconds(30)).build();
        Instant base = Instant.parse("2026-11-22T12:00:00Z");
        Map<Instant, AtomicInteger> ran = new ConcurrentHashMap<>();
        Map<RunOutcome, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<ScheduledFuture<?>> firings = new ArrayList<>();
        long maxSkewMillis = SKEW[SKEW.length - 1].toMillis();

        for (int n = 0; n < SKEW.length; n++) {
            String nodeId = "node-" + n;
            Clock clock = Clock.offset(Clock.systemUTC(), SKEW[n]);
            ShedLockLeaseStore store = ShedLockLeaseStore.create(ShedLockDatabase.get().provider(nodeId), clock,
                    Duration.ofMillis(50));
            JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace(namespace)
                    .node(NodeConfig.builder().nodeId(nodeId).build())
                    .skewTolerance(Duration.ofSeconds(30)).clock(clock).build());
            ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
            closeables.add(scheduler::shutdownNow);
            closeables.add(guard);
            closeables.add(store);
            for (int k = 0; k < FIRE_TIMES; k++) {
                Instant t = base.plus(Duration.ofMinutes(k));
                // A node whose clock is ahead reaches T first; 1 s of skew = 10 ms of delay.
                long delay = k * 60L + (maxSkewMillis - SKEW[n].toMillis()) / 100;
                firings.add(scheduler.schedule(() -> {
                    RunOutcome outcome = guard.run(job, t, () -> {
                        ran.computeIfAbsent(t, x -> new AtomicInteger()).incrementAndGet();
                        LockSupport.parkNanos(Duration.ofMillis(15).toNanos()); // the job's work
                    });
                    outcomes.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
                    log.add(t + " " + nodeId + " " + outcome);
                }, delay, TimeUnit.MILLISECONDS));
            }
        }
        for (ScheduledFuture<?> firing : firings) {
            firing.get(60, TimeUnit.SECONDS);
        }

        for (int k = 0; k < FIRE_TIMES; k++) {
            Instant t = base.plus(Duration.ofMinutes(k));
            assertThat(ran.get(t)).as("runs of T=%s in %s", t, log).isNotNull().hasValue(1);
        }
        assertThat(outcomes.get(RunOutcome.RAN)).hasValue(FIRE_TIMES);
        assertThat(outcomes.keySet()).containsOnly(RunOutcome.RAN, RunOutcome.ALREADY_RAN);
        assertThat(outcomes.get(RunOutcome.ALREADY_RAN)).as("late nodes found T taken").isNotNull();
    }
}
