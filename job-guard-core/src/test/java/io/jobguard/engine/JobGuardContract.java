package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.FiringPermit;
import io.jobguard.GuardType;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.monitor.ScheduleAgreementMonitor;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.FleetView;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.ScheduleClaim;
import io.jobguard.testing.OnRedisTopology;
import io.jobguard.testing.RedisTopology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The guarantees of {@link JobGuard} (DESIGN §2) on a real Redis: each nested class of
 * {@link JobGuardTopologiesIT} supplies one topology and client. Several "nodes" are several engines with distinct node ids, each
 * with its own store, sharing one Redis.
 */
abstract class JobGuardContract extends OnRedisTopology {

    private final List<AutoCloseable> closeables = new ArrayList<>();
    protected final List<JobEvent> events = new CopyOnWriteArrayList<>();
    protected final List<RunContext> lost = new CopyOnWriteArrayList<>();

    protected JobGuardContract(RedisTopology topology) {
        super(topology);
    }

    @AfterEach
    void closeNodes() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
    }

    protected JobGuard node(String nodeId) {
        return node(JobGuardConfig.builder().node(NodeConfig.builder().nodeId(nodeId).build())
                .skewTolerance(Duration.ofSeconds(30)).build());
    }

    protected JobGuard node(JobGuardConfig config) {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory(), "jgtest");
        JobGuard guard = JobGuard.create(store, config).addListener(new JobGuardListener() {
            @Override
            public void onJobEvent(JobEvent event) {
                events.add(event);
            }

            @Override
            public void onLeaseLost(RunContext context) {
                lost.add(context);
            }
        });
        closeables.add(store);
        closeables.add(guard);
        return guard;
    }

    private static final Instant BASE = Instant.parse("2026-11-22T10:00:00Z");

    /**
     * Three nodes whose clocks are skewed by more than the period fire the same 40 fire times,
     * three scheduler threads each: every fire time runs exactly once (WAIT), never twice (RETURN).
     */
    @Test
    void eachFireTimeRunsOnceAcrossSkewedNodes() throws Exception {
        for (GuardType type : GuardType.values()) {
            Map<Instant, List<String>> ranBy = new ConcurrentHashMap<>();
            String jobName = "skewed-" + type;
            JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(5)).type(type)
                    .waitFor(Duration.ofSeconds(3)).build();
            long[] skewMillis = {0, 120, 300};
            int fireTimes = 40;
            long periodMillis = 40;
            List<ScheduledExecutorService> schedulers = new ArrayList<>();
            List<Future<?>> firings = new ArrayList<>();
            for (int n = 0; n < skewMillis.length; n++) {
                String nodeId = "node-" + n;
                JobGuard guard = node(nodeId);
                ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(3);
                schedulers.add(scheduler);
                for (int k = 0; k < fireTimes; k++) {
                    Instant t = BASE.plusMillis(k * periodMillis);
                    firings.add(scheduler.schedule(() -> guard.run(job, t,
                                    () -> ranBy.computeIfAbsent(t, x -> new CopyOnWriteArrayList<>()).add(nodeId)),
                            k * periodMillis + skewMillis[n], TimeUnit.MILLISECONDS));
                }
            }
            for (Future<?> f : firings) {
                f.get(20, TimeUnit.SECONDS);
            }
            schedulers.forEach(ExecutorService::shutdown);

            assertThat(ranBy.values()).allSatisfy(nodes -> assertThat(nodes).hasSize(1));
            if (type == GuardType.WAIT) {
                assertThat(ranBy).hasSize(fireTimes);
            }
            assertThat(events).filteredOn(e -> e.job().equals(jobName))
                    .extracting(JobEvent::outcome)
                    .allSatisfy(o -> assertThat(o).isIn(RunOutcome.RAN, RunOutcome.ALREADY_RAN, RunOutcome.BUSY));
        }
    }

    @Test
    void manyThreadsRacingOnTheSameFireTimeRunItOnce() throws Exception {
        List<JobGuard> nodes = List.of(node("a"), node("b"), node("c"), node("d"));
        JobOptions job = JobOptions.builder("race", Duration.ofSeconds(10)).build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int k = 0; k < 25; k++) {
                Instant t = BASE.plusSeconds(k);
                AtomicInteger ran = new AtomicInteger();
                CountDownLatch start = new CountDownLatch(1);
                List<Future<RunOutcome>> results = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    JobGuard guard = nodes.get(i % nodes.size());
                    results.add(pool.submit(() -> {
                        start.await();
                        return guard.run(job, t, ran::incrementAndGet);
                    }));
                }
                start.countDown();
                int ranOutcomes = 0;
                for (Future<RunOutcome> f : results) {
                    RunOutcome outcome = f.get(10, TimeUnit.SECONDS);
                    assertThat(outcome).isIn(RunOutcome.RAN, RunOutcome.ALREADY_RAN, RunOutcome.BUSY);
                    ranOutcomes += outcome == RunOutcome.RAN ? 1 : 0;
                }
                assertThat(ran.get()).as("runs of T=%s", t).isEqualTo(1);
                assertThat(ranOutcomes).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void returnSkipsWhileAnotherRunHoldsTheLeaseAndWaitRunsAfterRelease() throws Exception {
        JobGuard a = node("a");
        // a 5 s fallback poll: a wake-up well under it can only come from the release notification
        JobGuard b = node(JobGuardConfig.builder().node(NodeConfig.builder().nodeId("b").build())
                .skewTolerance(Duration.ofSeconds(30))
                .waitPollInterval(Duration.ofSeconds(5)).build());
        JobOptions returning = JobOptions.builder("overlap", Duration.ofSeconds(10)).build();
        JobOptions waiting = returning.toBuilder().type(GuardType.WAIT).waitFor(Duration.ofSeconds(10)).build();

        FiringPermit longRun = a.admit(returning, BASE).permit();
        assertThat(b.run(returning, BASE.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.BUSY);

        CountDownLatch waiterRan = new CountDownLatch(1);
        long[] ranAtNanos = new long[1];
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<RunOutcome> waiter = pool.submit(() -> b.run(waiting, BASE.plusSeconds(2), () -> {
                ranAtNanos[0] = System.nanoTime();
                waiterRan.countDown();
            }));
            assertThat(waiterRan.await(300, TimeUnit.MILLISECONDS)).as("waiter must not run while held").isFalse();
            long releasedAt = System.nanoTime();
            longRun.finish(null);
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(RunOutcome.RAN);
            long latencyMicros = (ranAtNanos[0] - releasedAt) / 1000;
            System.out.printf("[measure] WAIT wake-up latency after release: %d us%n", latencyMicros);
            assertThat(latencyMicros).as("woken by the release notification, not the 5 s poll")
                    .isLessThan(3_000_000);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Skew makes nodes fire different fire times at the same instant: a RETURN firing of T1 that meets
     * the short run of T0 waits for its release (within its busy grace) and runs; a second firing of
     * T1 waiting alongside finds T1 taken after the release.
     */
    @Test
    void returnRunsAfterAShortRunOfAnotherFireTimeReleasesWithinTheGrace() throws Exception {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobGuard c = node("c");
        // a grace far above the 250 ms hold, so a slow machine cannot turn the wait into BUSY
        JobOptions job = JobOptions.builder("grace", Duration.ofSeconds(10)).busyGrace(Duration.ofSeconds(3)).build();

        FiringPermit shortRun = a.admit(job, BASE).permit();
        CountDownLatch ran = new CountDownLatch(1);
        long[] ranAtNanos = new long[1];
        List<String> ranOn = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<RunOutcome>> firings = new ArrayList<>();
            for (JobGuard node : List.of(b, c)) {
                firings.add(pool.submit(() -> node.run(job, BASE.plusSeconds(1), () -> {
                    ranOn.add(node.config().nodeId());
                    ranAtNanos[0] = System.nanoTime();
                    ran.countDown();
                })));
            }
            assertThat(ran.await(250, TimeUnit.MILLISECONDS)).as("T1 must not run while T0 holds the lease")
                    .isFalse();
            long releasedAt = System.nanoTime();
            shortRun.finish(null);
            List<RunOutcome> outcomes = new ArrayList<>();
            for (Future<RunOutcome> f : firings) {
                outcomes.add(f.get(5, TimeUnit.SECONDS));
            }
            assertThat(outcomes).containsExactlyInAnyOrder(RunOutcome.RAN, RunOutcome.ALREADY_RAN);
            assertThat(ranOn).hasSize(1);
            assertThat(ranAtNanos[0]).as("ran after the release").isGreaterThan(releasedAt);
            System.out.printf("[measure] RETURN grace wake-up latency after release: %d us%n",
                    (ranAtNanos[0] - releasedAt) / 1000);
        } finally {
            pool.shutdownNow();
        }
        assertThat(events).filteredOn(e -> e.job().equals("grace")).extracting(JobEvent::outcome)
                .containsExactlyInAnyOrder(RunOutcome.RAN, RunOutcome.RAN, RunOutcome.ALREADY_RAN);
    }

    @Test
    void returnIsBusyWhenTheOtherRunOutlastsTheGraceAndSkipsAtOnceWithZeroGrace() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("outlasts-grace", Duration.ofSeconds(10))
                .busyGrace(Duration.ofMillis(300)).build();
        try (FiringPermit longRun = a.admit(job, BASE).permit()) {
            long start = System.nanoTime();
            assertThat(b.run(job, BASE.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.BUSY);
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            assertThat(waited).as("waited out the grace").isGreaterThanOrEqualTo(Duration.ofMillis(300))
                    .isLessThan(Duration.ofSeconds(5));

            JobOptions strict = job.toBuilder().busyGrace(Duration.ZERO).build();
            assertThat(b.run(strict, BASE.plusSeconds(2), () -> { })).isEqualTo(RunOutcome.BUSY);
            assertThat(longRun.context().isLeaseLost()).isFalse();
        }
        // neither skipped fire time was burnt: both still run once the lease is free
        assertThat(b.run(job, BASE.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(b.run(job, BASE.plusSeconds(2), () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(events).filteredOn(e -> e.job().equals("outlasts-grace")).extracting(JobEvent::outcome)
                .containsExactly(RunOutcome.BUSY, RunOutcome.BUSY, RunOutcome.RAN, RunOutcome.RAN, RunOutcome.RAN);
    }

    @Test
    void waitTimesOutAsConfigured() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("wait-timeout", Duration.ofSeconds(10)).type(GuardType.WAIT)
                .waitFor(Duration.ofMillis(300)).build();
        try (FiringPermit held = a.admit(job, BASE).permit()) {
            long start = System.nanoTime();
            assertThat(b.run(job, BASE.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.WAIT_TIMEOUT);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(held.context().isLeaseLost()).isFalse();
        }
    }

    @Test
    void aFireTimeAlreadyRunIsSkippedEvenAfterRelease() {
        JobGuard early = node("early");
        JobGuard late = node("late");
        JobOptions job = JobOptions.builder("late-node", Duration.ofSeconds(10)).build();
        assertThat(early.run(job, BASE, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(late.run(job, BASE, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(late.run(job, BASE.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
    }

    @Test
    void releaseOfAnExpiredLeaseIsReportedAsLostAndLeavesTheNewHolderIntact() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("expiry", Duration.ofMillis(300)).keepAlive(false).build();
        FiringPermit first = a.admit(job, BASE).permit();
        await().atMost(Duration.ofSeconds(3)).until(() -> a.currentLease("expiry").isEmpty());

        // the new holder's lease is long: it must still be there when checked below
        FiringPermit second = b.admit(job.toBuilder().lease(Duration.ofSeconds(10)).build(), BASE.plusSeconds(1))
                .permit();
        assertThat(first.finish(null)).isEqualTo(RunOutcome.RAN);
        // the release's reply comes off the finishing thread: the loss is reported when it arrives
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(lost).extracting(RunContext::fencingToken)
                .containsExactly(first.context().fencingToken()));
        assertThat(first.context().isLeaseLost()).isTrue();
        LeaseRecord holder = b.currentLease("expiry").orElseThrow();
        assertThat(holder.nodeId()).isEqualTo("b");
        assertThat(holder.fencingToken()).isEqualTo(second.context().fencingToken());
        assertThat(second.context().fencingToken()).isGreaterThan(first.context().fencingToken());
        second.finish(null);
        assertThat(b.currentLease("expiry")).isEmpty();
    }

    @Test
    void fencingTokensStrictlyIncrease() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("fence", Duration.ofSeconds(10)).build();
        long previous = -1;
        for (int k = 0; k < 20; k++) {
            JobGuard guard = k % 2 == 0 ? a : b;
            FiringPermit permit = guard.admit(job, BASE.plusSeconds(k)).permit();
            assertThat(permit.context().fencingToken()).isGreaterThan(previous);
            previous = permit.context().fencingToken();
            permit.finish(null);
        }
    }

    @Test
    void keepAliveKeepsALongRunExclusive() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        // renewed every 500 ms: a lease under a second would be lost to a starved keep-alive thread, not to a bug
        JobOptions job = JobOptions.builder("keepalive", Duration.ofMillis(1500)).build();
        JobOptions probe = job.toBuilder().busyGrace(Duration.ZERO).build();
        try (FiringPermit longRun = a.admit(job, BASE).permit()) {
            AtomicInteger attempt = new AtomicInteger();
            // more than two lease periods: without renewal the lease would have expired twice
            await().during(Duration.ofMillis(3500)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(50))
                    .until(() -> b.run(probe, BASE.plusSeconds(attempt.incrementAndGet()), () -> { })
                            == RunOutcome.BUSY);
            assertThat(longRun.context().isLeaseLost()).isFalse();
            assertThat(a.currentLease("keepalive")).map(LeaseRecord::nodeId).contains("a");
        }
        assertThat(lost).isEmpty();
    }

    @Test
    void aStolenLeaseIsReportedAsLost() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("stolen", Duration.ofMillis(300)).build();
        FiringPermit run = a.admit(job, BASE).permit();
        assertThat(b.forceRelease("stolen")).isTrue();
        // the thief's long lease stays put however late the assertions below run
        FiringPermit thief = b.admit(JobOptions.builder("stolen", Duration.ofSeconds(10)).build(), BASE.plusSeconds(1))
                .permit();
        // the keep-alive thread sets the flag first and tells listeners after; wait for both
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(run.context().isLeaseLost()).isTrue();
            assertThat(lost).extracting(RunContext::job).containsExactly("stolen");
        });
        run.finish(null);
        assertThat(b.currentLease("stolen")).map(LeaseRecord::nodeId).contains("b");
        thief.finish(null);
    }

    @Test
    void aValueWeDidNotWriteIsAForeignHolderNotACrash() {
        JobGuard a = node("a");
        JobOptions job = JobOptions.builder("foreign", Duration.ofSeconds(10)).build();
        try (RedisConnection c = connectionFactory().getConnection()) {
            c.stringCommands().set(bytes("jgtest:{default:foreign}:run"), bytes("legacy-lock-value"));
            c.hashCommands().hSet(bytes("jgtest:{default:foreign2}:run"), bytes("f"), bytes("v"));
        }
        Admission admission = a.admit(job, BASE);
        assertThat(admission.granted()).isFalse();
        assertThat(admission.refusal()).isEqualTo(RunOutcome.BUSY);
        assertThat(a.currentLease("foreign")).get().satisfies(r -> {
            assertThat(r.foreign()).isTrue();
            assertThat(r.raw()).isEqualTo("legacy-lock-value");
        });
        assertThat(a.admit(JobOptions.builder("foreign2", Duration.ofSeconds(10)).build(), BASE).refusal())
                .isEqualTo(RunOutcome.BUSY);
        assertThat(a.currentLease("foreign2")).get().extracting(LeaseRecord::foreign).isEqualTo(true);
    }

    @Test
    void cooldownDelaysTheNextRunAfterTheEndOfThePrevious() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("cooldown", Duration.ofSeconds(10)).cooldown(Duration.ofSeconds(1))
                .build();
        assertThat(a.run(job, BASE, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(b.run(job, BASE.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.BUSY);
        JobOptions waiting = job.toBuilder().type(GuardType.WAIT).waitFor(Duration.ofSeconds(8)).build();
        long start = System.nanoTime();
        assertThat(b.run(waiting, BASE.plusSeconds(2), () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ran when the cool-down ended, not at wait-for")
                .isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void recentFiresRecordWhoRanWhichFireTime() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        JobOptions job = JobOptions.builder("history", Duration.ofSeconds(10)).build();
        a.run(job, BASE, () -> { });
        b.run(job, BASE.plusSeconds(1), () -> { });
        assertThat(a.recentFires("history")).extracting(LeaseRecord::nodeId, LeaseRecord::nominalFireTime)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("b", BASE.plusSeconds(1)),
                        org.assertj.core.groups.Tuple.tuple("a", BASE));
    }

    @Test
    void nodesThatFireAJobOnDifferentSchedulesAreNamed() {
        String utc = "cron \"0 0 2 * * *\" (UTC)";
        String tokyo = "cron \"0 0 2 * * *\" (Asia/Tokyo)";
        ScheduleAgreementMonitor a = monitor(node("a"), Map.of("nightly", utc, "hourly", "cron \"0 0 * * * *\" (UTC)"));
        ScheduleAgreementMonitor b = monitor(node("b"), Map.of("nightly", utc));
        ScheduleAgreementMonitor c = monitor(node("c"), Map.of("nightly", tokyo, "hourly", "cron \"0 0 * * * *\" (UTC)"));
        assertThat(a.checkNow()).isEmpty();
        assertThat(b.checkNow()).isEmpty();
        assertThat(c.checkNow()).isEqualTo(Map.of("nightly", Map.of(utc, List.of("a", "b"))));
        assertThat(a.checkNow()).isEqualTo(Map.of("nightly", Map.of(tokyo, List.of("c"))));
    }

    @Test
    void aNodeThatStopsPublishingItsScheduleNoLongerCounts() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Duration interval = Duration.ofMillis(500);
        ScheduleAgreementMonitor old = new ScheduleAgreementMonitor(a, () -> Map.of("rate", "fixedRate PT10S"), interval);
        ScheduleAgreementMonitor current = new ScheduleAgreementMonitor(b, () -> Map.of("rate", "fixedRate PT5S"),
                interval);
        old.checkNow();
        assertThat(current.checkNow()).isEqualTo(Map.of("rate", Map.of("fixedRate PT10S", List.of("a"))));
        // claims live three intervals by Redis time; node a never publishes again
        await().atMost(Duration.ofSeconds(5)).until(() -> current.checkNow().isEmpty());
        assertThat(b.store().capability(FleetView.class).orElseThrow().publishSchedule(new JobId(b.config().namespace(), "rate"), "b", "fixedRate PT5S",
                Duration.ofSeconds(1))).extracting(ScheduleClaim::nodeId).containsExactly("b");
    }

    private ScheduleAgreementMonitor monitor(JobGuard guard, Map<String, String> schedules) {
        ScheduleAgreementMonitor monitor = new ScheduleAgreementMonitor(guard, () -> schedules, Duration.ofMinutes(1));
        closeables.add(monitor);
        return monitor;
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
