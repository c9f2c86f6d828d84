package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Missed fire times on a real redis-server, with nodes that have their own connections and skewed clocks:
 * fire times nobody started are caught up (or reported) once in the cluster as the misfire policy
 * says, at start and at the next firing, and a run that died runs again once under at-least-once.
 */
@WithRedis
class MissedFireTimeRecoveryIT {

    private static final Duration SKEW = Duration.ofSeconds(2);

    private final RedisServerProcess redis;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();
    /** Every body start in the cluster: fire time, node, attempt, token. */
    private final List<String> runs = new CopyOnWriteArrayList<>();

    MissedFireTimeRecoveryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        redis.ensureRunning();
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    /** A node with its own connections and its own clock, {@code skewMillis} off the real one. */
    private Node node(String id, long skewMillis) {
        return node(id, skewMillis, (nominalFireTime, answer) -> { });
    }

    /** {@link #node(String, long)}, its store calling {@code afterDeciding} after each call that decides fire times. */
    private Node node(String id, long skewMillis, BiConsumer<Instant, AcquireResult> afterDeciding) {
        LettuceConnectionFactory factory = redis.connectionFactory(Duration.ofSeconds(2));
        factories.add(factory);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgtest");
        JobGuard guard = JobGuard.create(new UnreachableStore(store, () -> false, failed -> { }, afterDeciding),
                JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .skewTolerance(SKEW)
                        .clock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(skewMillis))).build())
                .addListener(new JobGuardListener() {
                    @Override
                    public void onJobEvent(JobEvent event) {
                        events.add(event);
                    }
                });
        closeables.add(guard);
        closeables.add(store);
        return new Node(id, guard, ((JobGuardEngine) guard).missedFireTimeRecovery(), store);
    }

    private record Node(String id, JobGuard guard, MissedFireTimeRecovery recovery, RedisLeaseStore store) {
    }

    /** A schedule of exactly these fire times. */
    private static FireTimeSchedule grid(List<Instant> fireTimes) {
        return after -> fireTimes.stream().filter(t -> t.isAfter(after)).findFirst().orElse(null);
    }

    private Runnable body(String node) {
        return () -> {
            RunContext c = RunContext.current().orElseThrow();
            runs.add(c.nominalFireTime() + " " + node + " attempt=" + c.attempt() + " retry=" + c.isRetry()
                    + " catchUp=" + c.isCatchUp() + " token=" + c.fencingToken());
        };
    }

    private List<String> runsOf(Instant fireTime) {
        return runs.stream().filter(r -> r.startsWith(fireTime + " ")).toList();
    }

    private long count(RunOutcome outcome) {
        return events.stream().filter(e -> e.outcome() == outcome).count();
    }

    /** Runs the regular firing of {@code fireTime} on {@code node} as an adapter does. */
    private RunOutcome fire(Node node, JobOptions job, RecoveryOptions recovery, Instant fireTime) {
        Admission admission = node.recovery().admit(job, recovery, fireTime, body(node.id()));
        if (!admission.granted()) {
            return admission.refusal();
        }
        try (FiringPermit permit = admission.permit()) {
            body(node.id()).run();
            return permit.finish(null);
        }
    }

    /** Both nodes start at once and recover the job concurrently. */
    private void startTogether(JobOptions job, RecoveryOptions recovery, Node... nodes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(nodes.length);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (Node node : nodes) {
                done.add(pool.submit(() -> {
                    go.await();
                    node.recovery().recover(job, recovery, body(node.id()));
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Fire time t0 ran; t1..t3 fell while every node was down; the cluster restarts after t3. */
    private List<Instant> outage(String jobName, MisfirePolicy policy) throws Exception {
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(12);
        List<Instant> times = List.of(base, base.plusSeconds(2), base.plusSeconds(4), base.plusSeconds(6));
        JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(10)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(policy).delivery(Delivery.AT_MOST_ONCE)
                .schedule(grid(times)).build();
        Node before = node("old", 0);
        assertThat(fire(before, job, recovery, times.get(0))).isEqualTo(RunOutcome.RAN);
        runs.clear();
        events.clear();
        startTogether(job, recovery, node("a", 700), node("b", -700));
        return times;
    }

    @Test
    void runAllRunsTheThreeMissedFireTimesInOrderEachOnceInTheCluster() throws Exception {
        List<Instant> t = outage("all", MisfirePolicy.RUN_ALL);
        assertThat(runs).hasSize(3);
        for (int i = 1; i <= 3; i++) {
            assertThat(runsOf(t.get(i))).as("runs of t%d", i).hasSize(1);
            assertThat(runs.get(i - 1)).startsWith(t.get(i) + " ").contains("catchUp=true");
        }
        assertThat(count(RunOutcome.CAUGHT_UP)).isEqualTo(3);
        assertThat(count(RunOutcome.MISSED)).isZero();
    }

    @Test
    void runLatestRunsOneCatchUpAndReportsTheOthersMissed() throws Exception {
        List<Instant> t = outage("latest", MisfirePolicy.RUN_LATEST);
        assertThat(runs).hasSize(1);
        assertThat(runsOf(t.get(3))).hasSize(1);
        assertThat(count(RunOutcome.CAUGHT_UP)).isEqualTo(1);
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.MISSED).extracting(JobEvent::nominalFireTime)
                .containsExactly(t.get(1), t.get(2));
    }

    @Test
    void theRecentFireTimesListTheCatchUpAndTheMissedFireTimesOnceEach() throws Exception {
        List<Instant> t = outage("listed", MisfirePolicy.RUN_LATEST);
        Node reader = node("reader", 0);
        List<RunHistory.FireEntry> history = reader.store()
                .fireHistory(new JobId(reader.guard().config().namespace(), "listed"), 20);
        assertThat(history).filteredOn(e -> e.outcome().equals("CAUGHT_UP")).singleElement()
                .satisfies(e -> {
                    assertThat(e.nominalFireTime()).isEqualTo(t.get(3));
                    assertThat(e.node()).isIn("a", "b");
                    assertThat(e.duration()).isNotNull();
                    assertThat(e.fencingToken()).isPositive();
                });
        assertThat(history).filteredOn(e -> e.outcome().equals("MISSED"))
                .extracting(RunHistory.FireEntry::nominalFireTime).containsExactlyInAnyOrder(t.get(1), t.get(2));
        assertThat(history).filteredOn(e -> e.outcome().equals("RAN")).singleElement()
                .satisfies(e -> assertThat(e.nominalFireTime()).isEqualTo(t.get(0)));
    }

    @Test
    void skipRunsNoneAndReportsThreeMissedOnce() throws Exception {
        List<Instant> t = outage("skip", MisfirePolicy.SKIP);
        assertThat(runs).isEmpty();
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.MISSED).extracting(JobEvent::nominalFireTime)
                .containsExactly(t.get(1), t.get(2), t.get(3));
    }

    /** Every node gets STORE_ERROR for t1 (Redis stopped); Redis comes back before t2. */
    private List<Instant> storeErrorAt(String jobName, MisfirePolicy policy, Node a, Node b) {
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(6);
        List<Instant> times = List.of(base, base.plusSeconds(2), base.plusSeconds(4));
        JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(10)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(policy).delivery(Delivery.AT_MOST_ONCE)
                .schedule(grid(times)).build();
        assertThat(fire(a, job, recovery, times.get(0))).isEqualTo(RunOutcome.RAN);
        assertThat(fire(b, job, recovery, times.get(0))).isEqualTo(RunOutcome.ALREADY_RAN);
        // Redis is stopped (its data saved first, as a persistent Redis keeps it) and comes back. A pause
        // would not do: the acquire sent to a frozen server still runs when it thaws (a lost reply)
        redis.call("SAVE");
        redis.stop();
        assertThat(fire(a, job, recovery, times.get(1))).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(fire(b, job, recovery, times.get(1))).isEqualTo(RunOutcome.STORE_ERROR);
        redis.restart();
        for (Node node : List.of(a, b)) {
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> node.guard().measureClockSkew() != null);
        }
        // b's clock is behind: a fires t2 first, b fires t2 (and, late, t1 again)
        assertThat(fire(a, job, recovery, times.get(2))).isEqualTo(RunOutcome.RAN);
        assertThat(fire(b, job, recovery, times.get(2))).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(fire(b, job, recovery, times.get(1))).isNotIn(RunOutcome.RAN, RunOutcome.CAUGHT_UP);
        return times;
    }

    @Test
    void afterAStoreErrorEverywhereRunLatestCatchesTheFireTimeUpOnceBeforeTheNextRun() {
        Node a = node("a", 700);
        Node b = node("b", -700);
        List<Instant> t = storeErrorAt("store-error-latest", MisfirePolicy.RUN_LATEST, a, b);
        assertThat(runsOf(t.get(1))).hasSize(1).allMatch(r -> r.contains("catchUp=true"));
        assertThat(runsOf(t.get(2))).hasSize(1);
        assertThat(runs.indexOf(runsOf(t.get(1)).get(0))).isLessThan(runs.indexOf(runsOf(t.get(2)).get(0)));
        assertThat(count(RunOutcome.CAUGHT_UP)).isEqualTo(1);
    }

    @Test
    void afterAStoreErrorEverywhereSkipReportsTheFireTimeMissedOnceAndNeverRunsIt() {
        Node a = node("a", 700);
        Node b = node("b", -700);
        List<Instant> t = storeErrorAt("store-error-skip", MisfirePolicy.SKIP, a, b);
        assertThat(runsOf(t.get(1))).isEmpty();
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.MISSED).extracting(JobEvent::nominalFireTime)
                .containsExactly(t.get(1));
    }

    /** Node a takes t1 and dies mid-run (no release, no renewal); its lease expires. */
    private List<Instant> deathAt(String jobName, Delivery delivery, Node a) {
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<Instant> times = List.of(base, base.plusSeconds(2), base.plusSeconds(4));
        JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(2)).keepAlive(false).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP).delivery(delivery)
                .schedule(grid(times)).build();
        assertThat(fire(a, job, recovery, times.get(0))).isEqualTo(RunOutcome.RAN);
        Admission dying = a.recovery().admit(job, recovery, times.get(1), body("a"));
        assertThat(dying.granted()).isTrue();
        body("a").run();
        // a is gone: it never finishes the permit; its lease expires by Redis TTL
        await().atMost(Duration.ofSeconds(20)).until(() -> a.guard().currentLease(jobName).isEmpty());
        return times;
    }

    @Test
    void withAtLeastOnceARunThatDiedRunsAgainOnceOnAnotherNodeWithAHigherToken() throws Exception {
        Node a = node("a", 700);
        Node b = node("b", -700);
        Node c = node("c", 300);
        JobOptions job = JobOptions.builder("died", Duration.ofSeconds(2)).keepAlive(false).build();
        List<Instant> t = deathAt("died", Delivery.AT_LEAST_ONCE, a);
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_LEAST_ONCE).schedule(grid(t)).build();
        // b and c fire t2 at once: one of them retries t1 first, then t2 runs once
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            Future<RunOutcome> onB = pool.submit(() -> {
                go.await();
                return fire(b, job, recovery, t.get(2));
            });
            Future<RunOutcome> onC = pool.submit(() -> {
                go.await();
                return fire(c, job, recovery, t.get(2));
            });
            go.countDown();
            assertThat(List.of(onB.get(60, TimeUnit.SECONDS), onC.get(60, TimeUnit.SECONDS)))
                    .containsOnlyOnce(RunOutcome.RAN);
        } finally {
            pool.shutdownNow();
        }
        List<String> t1 = runsOf(t.get(1));
        assertThat(t1).hasSize(2);
        assertThat(t1.get(0)).contains(" a attempt=1 retry=false");
        assertThat(t1.get(1)).doesNotContain(" a ").contains("attempt=2 retry=true");
        assertThat(token(t1.get(1))).isGreaterThan(token(t1.get(0)));
        assertThat(runsOf(t.get(2))).hasSize(1);
        assertThat(count(RunOutcome.RETRIED)).isEqualTo(1);
        // a later firing on any node does not run t1 again
        Instant later = t.get(2).plusSeconds(2);
        fire(a, job, recovery.toBuilder().schedule(grid(List.of(t.get(0), t.get(1), t.get(2), later))).build(), later);
        assertThat(runsOf(t.get(1))).hasSize(2);
    }

    @Test
    void withAtMostOnceARunThatDiedIsReportedOnceAndNotRunAgain() {
        Node a = node("a", 700);
        Node b = node("b", -700);
        JobOptions job = JobOptions.builder("died-once", Duration.ofSeconds(2)).keepAlive(false).build();
        List<Instant> t = deathAt("died-once", Delivery.AT_MOST_ONCE, a);
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_MOST_ONCE).schedule(grid(t)).build();
        assertThat(fire(b, job, recovery, t.get(2))).isEqualTo(RunOutcome.RAN);
        assertThat(fire(a, job, recovery, t.get(2))).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(runsOf(t.get(1))).hasSize(1);
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.ABANDONED).extracting(JobEvent::nominalFireTime)
                .containsExactly(t.get(1));
    }

    /**
     * A node whose clock lags runs an earlier fire time after a later one ran and completed (its marker was free, and
     * the record had passed the fire time before it): its release does not set the latest completed fire time back, so
     * the next firing finds nothing that started and never completed: no ABANDONED, and under at-least-once no second
     * run of the later fire time.
     */
    @Test
    void aRunOfAnEarlierFireTimeCompletingLastDoesNotMakeTheLaterRunLookDead() {
        Node a = node("a", 0);
        Node b = node("b", 0);
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(10);
        List<Instant> t = List.of(base, base.plusSeconds(1), base.plusSeconds(2));
        String jobName = "out-of-order";
        JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(10)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_LEAST_ONCE).maxAttempts(3).schedule(grid(t)).build();
        assertThat(fire(a, job, recovery, t.get(1))).isEqualTo(RunOutcome.RAN);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.guard().currentLease(jobName).isEmpty());
        // b's clock lags: it fires t0 after t1 ran (the first fire time of the grid: no gap before it)
        assertThat(fire(b, job, recovery, t.get(0))).isEqualTo(RunOutcome.RAN);
        await().atMost(Duration.ofSeconds(10)).until(() -> b.guard().currentLease(jobName).isEmpty());
        assertThat(fire(a, job, recovery, t.get(2))).isEqualTo(RunOutcome.RAN);
        assertThat(runsOf(t.get(1))).as("runs of t1").hasSize(1);
        assertThat(events).noneMatch(e -> e.outcome() == RunOutcome.ABANDONED || e.outcome() == RunOutcome.RETRIED);
    }

    /**
     * Every-second fire times in a row on two nodes with recovery on (RUN_ALL, AT_LEAST_ONCE) and
     * nothing to recover: each firing costs one script call to acquire and one to release on the node
     * that runs it, one on the node that finds it taken, as without recovery (the checks run inside
     * the acquire script). The script calls are counted with {@code INFO commandstats}; nothing is
     * timed. Script loads (the first call of each script on a node) are warmed up first.
     */
    @Test
    void aFiringWithRecoveryOnAndNothingToRecoverCostsTheSameScriptCallsAsWithout() {
        Node a = node("a", 700);
        Node b = node("b", -700);
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
        List<Instant> times = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            times.add(base.plusSeconds(i));
        }
        JobOptions job = JobOptions.builder("round-trips", Duration.ofSeconds(10)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.RUN_ALL)
                .catchUpWindow(Duration.ofHours(1)).catchUpMax(10).delivery(Delivery.AT_LEAST_ONCE).maxAttempts(3)
                .schedule(grid(times)).build();
        assertThat(fire(a, job, recovery, times.get(0))).isEqualTo(RunOutcome.RAN);
        assertThat(fire(b, job, recovery, times.get(0))).isEqualTo(RunOutcome.ALREADY_RAN);
        // the release is sent without waiting for its reply: count from the moment it has landed
        await().atMost(Duration.ofSeconds(10)).until(() -> a.guard().currentLease("round-trips").isEmpty());
        redis.resetStats();
        for (int i = 1; i < 40; i++) {
            assertThat(fire(a, job, recovery, times.get(i))).isEqualTo(RunOutcome.RAN);
            assertThat(fire(b, job, recovery, times.get(i))).isEqualTo(RunOutcome.ALREADY_RAN);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> a.guard().currentLease("round-trips").isEmpty());
        // three script calls per pair, all EVALSHA: two acquires and a's release (sent without waiting;
        // EVAL only when Redis has lost a script)
        assertThat(redis.commandStats()).containsEntry("evalsha", 39L * 3).doesNotContainKey("eval")
                .doesNotContainKey("hgetall");
        assertThat(runs).hasSize(40);
        assertThat(events).noneMatch(e -> e.outcome() == RunOutcome.CAUGHT_UP || e.outcome() == RunOutcome.MISSED);
    }

    /**
     * After Redis lost its data, a node whose firing is refused {@code HISTORY_LOST} while fire times before it were
     * never handled is killed right after the call that decides them, before it reports anything: they are in the
     * job's history all the same, once each, because that call recorded them. The node's fire time itself is refused
     * by the next node that fires it.
     */
    @Test
    void fireTimesPassedOverByARefusalAfterALossAreRecordedByTheCallThatDecidesThem() {
        String jobName = "refused-stretch";
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(10);
        List<Instant> t = List.of(base, base.plusSeconds(1), base.plusSeconds(2), base.plusSeconds(3));
        JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(10)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.RUN_ALL)
                .catchUpWindow(Duration.ofHours(1)).delivery(Delivery.AT_MOST_ONCE).schedule(grid(t)).build();
        List<Instant> decided = new CopyOnWriteArrayList<>();
        Node a = node("a", 0, (nominalFireTime, answer) -> {
            decided.add(nominalFireTime);
            throw new KilledAfterDeciding();
        });
        assertThat(fire(a, job, recovery, t.get(0))).isEqualTo(RunOutcome.RAN);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.guard().currentLease(jobName).isEmpty());
        redis.call("FLUSHALL");

        // t1 and t2 were never handled; t3 falls in the window refused after the loss
        assertThatThrownBy(() -> fire(a, job, recovery, t.get(3)))
                .isInstanceOf(KilledAfterDeciding.class);
        assertThat(decided).as("the call that decided t1 and t2").hasSize(1);
        assertThat(events).noneMatch(e -> e.outcome() == RunOutcome.HISTORY_LOST);

        Node b = node("b", 0);
        assertThat(fire(b, job, recovery, t.get(3))).isEqualTo(RunOutcome.HISTORY_LOST);
        List<RunHistory.FireEntry> history = b.store()
                .fireHistory(new JobId(b.guard().config().namespace(), jobName), 20);
        assertThat(history).filteredOn(e -> e.outcome().equals("HISTORY_LOST")).extracting(RunHistory.FireEntry::nominalFireTime)
                .containsExactlyInAnyOrder(t.get(1), t.get(2), t.get(3));
        assertThat(runs).hasSize(1);
    }

    /** Every second, on the second. */
    private static final FireTimeSchedule EVERY_SECOND = after -> after.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);

    /**
     * Fires the job on {@code node} at every fire time of {@link #EVERY_SECOND} as the node's clock reaches it, as its
     * scheduler would, until {@code stop} returns true for the outcome: each fire time and its outcome are added to
     * {@code fired}.
     */
    private Future<?> fireOnItsClock(ScheduledExecutorService scheduler, Node node, JobOptions job,
                                     RecoveryOptions recovery, Map<Instant, RunOutcome> fired,
                                     Predicate<Map<Instant, RunOutcome>> stop) {
        Clock clock = node.guard().config().clock();
        Instant next = EVERY_SECOND.next(clock.instant());
        return scheduler.schedule(() -> {
            fired.put(next, fire(node, job, recovery, next));
            if (!stop.test(fired)) {
                fireOnItsClock(scheduler, node, job, recovery, fired, stop);
            }
        }, Duration.between(clock.instant(), next).toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A node whose clock leads by more than the period fires a job that a node with a lagging clock ran until now: the
     * fire times after the last one run, which it finds unhandled, are ones the lagging node has not fired yet. They
     * are due, not missed: the leading node runs them at once, in order, then its own; none is reported MISSED, none
     * runs twice, and the leading node keeps the job (the lagging node finds its fire times taken).
     */
    @Test
    void fireTimesANodeWhoseClockLagsHasNotReachedAreRunNotReportedMissed() {
        Node late = node("late", -2_000);
        Node early = node("early", 3_000);
        JobOptions job = JobOptions.builder("lagging", Duration.ofSeconds(5)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_MOST_ONCE).schedule(EVERY_SECOND).build();
        Map<Instant, RunOutcome> firedLate = new ConcurrentSkipListMap<>();
        Map<Instant, RunOutcome> firedEarly = new ConcurrentSkipListMap<>();
        AtomicReference<Instant> lastOfEarly = new AtomicReference<>(Instant.MAX);
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        try {
            fireOnItsClock(scheduler, late, job, recovery, firedLate,
                    fired -> ((ConcurrentSkipListMap<Instant, RunOutcome>) fired).lastKey().compareTo(lastOfEarly.get()) >= 0);
            // the late node has run fire times (and published how late it fires: the early node reads it at its
            // first firing)
            await().atMost(Duration.ofSeconds(20)).until(() -> firedLate.size() >= 3);
            fireOnItsClock(scheduler, early, job, recovery, firedEarly, fired -> fired.size() >= 3);
            await().atMost(Duration.ofSeconds(20)).until(() -> firedEarly.size() >= 3);
            lastOfEarly.set(((ConcurrentSkipListMap<Instant, RunOutcome>) firedEarly).lastKey());
            await().atMost(Duration.ofSeconds(20)).until(() -> firedLate.containsKey(lastOfEarly.get()));
        } finally {
            scheduler.shutdownNow();
        }
        assertThat(firedEarly.values()).as("the early node's firings").containsOnly(RunOutcome.RAN);
        assertThat(events).noneMatch(e -> e.outcome() == RunOutcome.MISSED || e.outcome() == RunOutcome.CAUGHT_UP);
        Instant first = ((ConcurrentSkipListMap<Instant, RunOutcome>) firedLate).firstKey();
        Instant firstOfEarly = ((ConcurrentSkipListMap<Instant, RunOutcome>) firedEarly).firstKey();
        for (Instant t = first; !t.isAfter(lastOfEarly.get()); t = t.plusSeconds(1)) {
            assertThat(runsOf(t)).as("runs of %s", t).hasSize(1);
        }
        assertThat(runsOf(firstOfEarly.minusSeconds(1))).as("the fire time before the early node's first")
                .singleElement().satisfies(r -> assertThat(r).contains(" early "));
    }

    /**
     * After a gap, a node whose clock leads reports MISSED the fire times every node has passed and runs, at once, those
     * a live node whose clock lags has not reached yet (that node publishes how late it fires but runs other jobs):
     * every fire time of the gap has one outcome, the old ones MISSED, the young ones run.
     */
    @Test
    void aGapIsMissedWhereEveryNodePassedItAndRunWhereALaggingNodeHasNotReachedIt() {
        Node late = node("late", -2_000);
        Node early = node("early", 3_000);
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_MOST_ONCE).schedule(EVERY_SECOND).build();
        JobOptions other = JobOptions.builder("other", Duration.ofSeconds(5)).build();
        JobOptions job = JobOptions.builder("solo", Duration.ofSeconds(5)).build();
        Instant clockOfEarly = early.guard().config().clock().instant().truncatedTo(ChronoUnit.SECONDS);
        // the job ran before the gap, 4 s before the early node's clock now
        assertThat(fire(early, job, recovery, clockOfEarly.minusSeconds(4))).isEqualTo(RunOutcome.RAN);
        Map<Instant, RunOutcome> firedOther = new ConcurrentSkipListMap<>();
        Map<Instant, RunOutcome> firedEarly = new ConcurrentSkipListMap<>();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        try {
            fireOnItsClock(scheduler, late, other, recovery, firedOther, fired -> false);
            await().atMost(Duration.ofSeconds(20)).until(() -> firedOther.size() >= 2
                    && early.store().reachedByLaterNodes().isPresent());
            fireOnItsClock(scheduler, early, job, recovery, firedEarly, fired -> true);
            await().atMost(Duration.ofSeconds(20)).until(() -> firedEarly.size() == 1);
        } finally {
            scheduler.shutdownNow();
        }
        Instant firing = firedEarly.keySet().iterator().next();
        assertThat(firedEarly.get(firing)).as("the early node's firing").isEqualTo(RunOutcome.RAN);
        List<Instant> missed = events.stream().filter(e -> e.outcome() == RunOutcome.MISSED && e.job().equals("solo"))
                .map(JobEvent::nominalFireTime).toList();
        List<Instant> ran = new ArrayList<>();
        for (Instant t = clockOfEarly.minusSeconds(3); t.isBefore(firing); t = t.plusSeconds(1)) {
            boolean isMissed = missed.contains(t);
            // the late node runs only the other job
            assertThat(runsOf(t)).filteredOn(r -> r.contains(" early ")).as("runs of %s (MISSED: %s)", t, isMissed)
                    .hasSize(isMissed ? 0 : 1);
            if (!isMissed) {
                ran.add(t);
            }
        }
        assertThat(ran).as("run: the fire times the late node (2 s behind) has not reached").isNotEmpty();
        assertThat(missed).as("MISSED once each, the oldest of the gap").doesNotHaveDuplicates().isNotEmpty()
                .allSatisfy(t -> assertThat(t).isBefore(ran.get(0)));
    }

    /** Thrown by a store hook: the node dies there. */
    private static final class KilledAfterDeciding extends Error {
        private static final long serialVersionUID = 1L;

        KilledAfterDeciding() {
            super("node killed right after the call that decided fire times", null, false, false);
        }
    }

    /** The job's state key (run record, epoch, counter) holding another type: the acquire fails naming it, nothing is written. */
    @Test
    void aRecordKeyOfAnotherTypeFailsTheAcquireNamingItAndNothingIsWritten() {
        Node a = node("a", 0);
        JobOptions job = JobOptions.builder("foreign", Duration.ofSeconds(10)).build();
        redis.call("SET", "jgtest:{default:foreign}:state-v2", "not a hash");
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(a.guard().run(job, t, () -> runs.add("ran"))).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(runs).isEmpty();
        assertThat(redis.call("EXISTS", "jgtest:{default:foreign}:run")).isEqualTo(0L);
        assertThat(redis.call("GET", "jgtest:{default:foreign}:state-v2")).isEqualTo("not a hash");
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.STORE_ERROR).singleElement()
                .satisfies(e -> assertThat(e.failure()).hasStackTraceContaining("jgtest:{default:foreign}:state-v2 holds a string"));
    }

    private static long token(String run) {
        return Long.parseLong(run.substring(run.indexOf("token=") + 6));
    }
}
