package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a real redis-server: when Redis loses its data (restart without
 * persistence, FLUSHALL, an evicted key), fencing tokens keep growing and no fire time that may
 * have run before the loss runs again; later fire times run as usual.
 */
@WithRedis
class HistoryLossIT {

    /** The skew tolerance of the nodes here, which is also the window refused after a loss. */
    private static final Duration SKEW = Duration.ofSeconds(2);
    private static final JobOptions JOB = JobOptions.builder("report", Duration.ofSeconds(10)).build();

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();

    HistoryLossIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        redis.ensureRunning();
        connectionFactory.destroy();
    }

    private JobGuard node(String id) {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgtest");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .skewTolerance(SKEW).build())
                .addListener(new JobGuardListener() {
                    @Override
                    public void onJobEvent(JobEvent event) {
                        events.add(event);
                    }
                });
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    private void awaitRedisAnswers() {
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> {
            try (RedisConnection c = connectionFactory.getConnection()) {
                return "PONG".equals(c.ping());
            }
        });
    }

    private long fenceOf(JobGuard guard, Instant fireTime) {
        Admission admission = guard.admit(JOB, fireTime);
        assertThat(admission.granted()).as("%s granted", fireTime).isTrue();
        try (FiringPermit permit = admission.permit()) {
            return permit.context().fencingToken();
        }
    }

    @Test
    void afterARestartWithDataLossTokensKeepGrowingAndNoFireTimeThatRanRunsAgain() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t1 = now();
        long before = fenceOf(a, t1);
        assertThat(b.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);

        redis.restart();
        awaitRedisAnswers();

        // t1's marker is gone with the data: both nodes knew the job's epoch, so both refuse t1
        int[] runs = {0};
        assertThat(b.run(JOB, t1, () -> runs[0]++)).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(a.run(JOB, t1, () -> runs[0]++)).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(runs[0]).isZero();

        // a fire time after the loss plus the window runs, with a higher token than before the loss
        Instant later = now().plus(SKEW).plusSeconds(2);
        long after = fenceOf(b, later);
        assertThat(after).isGreaterThan(before);
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.HISTORY_LOST).hasSize(2);
    }

    @Test
    void aFlushAllDuringARunLetsNoOtherNodeRunThatFireTimeAndTheLaterRunHasTheHigherToken() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t0 = now().minusSeconds(1);
        fenceOf(a, t0);
        assertThat(b.run(JOB, t0, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);

        Instant t1 = t0.plusSeconds(1);
        try (FiringPermit running = a.admit(JOB, t1).permit()) {
            long first = running.context().fencingToken();
            redis.flushAll();
            // b fires t1 late (clock behind): the marker and the lease are gone, b must not run t1
            assertThat(b.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);

            Instant later = now().plus(SKEW).plusSeconds(2);
            long second = fenceOf(b, later);
            assertThat(second).isGreaterThan(first);
        }
    }

    /**
     * What a replica promoted before it received the last writes holds: the epoch (replicated long
     * ago), an older fencing counter, no marker of the last fire time. The epoch cannot tell; the
     * node that was handed the lost token can.
     */
    @Test
    void aPromotedReplicaThatMissedTheLastWritesIsALossForTheNodeThatSawTheLostToken() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t0 = now().minusSeconds(1);
        fenceOf(a, t0);
        assertThat(b.run(JOB, t0, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);
        String state = "jgtest:{default:report}:state-v2";
        Object replicated = redis.call("HGET", state, "f");

        Instant t1 = t0.plusSeconds(1);
        long lost = fenceOf(a, t1);
        // the failover: the new primary never got t1's acquisition
        redis.call("HSET", state, "f", String.valueOf(replicated));
        redis.call("DEL", "jgtest:{default:report}:fired:" + t1.toEpochMilli());

        // a fires t1 again first (a re-executed firing) and sees the counter below the token it was handed
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        // b, late, fires t1: without the renewed epoch it would run t1 a second time
        assertThat(b.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        // neither node runs ahead of Redis (leads about 0, known to both in memory): a later fire time is judged, not
        // refused for the whole skew tolerance, and its token is above the lost one
        long next = fenceOf(a, now().plusSeconds(2));
        assertThat(next).isGreaterThan(lost);
        assertThat(fenceOf(b, now().plus(SKEW).plusSeconds(2))).isGreaterThan(lost);
    }

    /**
     * The bound of a lossy failover for a job of a longer period (a minute here): its last run (t1) is among the
     * writes the promoted replica missed, so its next firing (t2, a period later) is the first to see the lost token,
     * dates the loss then and is refused; the fire time after it (t3) runs. One fire time is lost to the refusal, and
     * the job runs again one period after the firing that noticed. Durable acquire, which starts t1's run only once a
     * replica holds its lease, leaves nothing to miss.
     */
    @Test
    void aMinuteJobWhoseLastRunThePromotedReplicaMissedIsRefusedAtItsNextFiringAndRunsOnePeriodLater() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t2 = now();
        Instant t0 = t2.minusSeconds(120);
        Instant t1 = t2.minusSeconds(60);
        fenceOf(a, t0);
        String state = "jgtest:{default:report}:state-v2";
        Object replicated = redis.call("HGET", state, "f");
        fenceOf(a, t1);
        // the failover: the new primary never got t1's acquisition
        redis.call("HSET", state, "f", String.valueOf(replicated));
        redis.call("DEL", "jgtest:{default:report}:fired:" + t1.toEpochMilli());

        assertThat(a.run(JOB, t2, () -> { })).as("the firing that sees the lost token").isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(b.run(JOB, t2, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(b.run(JOB, t2.plusSeconds(60), () -> { })).as("one period later").isEqualTo(RunOutcome.RAN);
    }

    /**
     * After a flush every node that had been handed a token above the lost counter sees it is below: the first
     * of them dates the loss, the others must not move that date on (each move would restart the fleet's
     * re-publication after the loss, which the measured refusal window waits for).
     */
    @Test
    void nodesThatEachHeldAHigherTokenDoNotMoveTheEpochOfOneLossOn() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t0 = now().minusSeconds(1);
        fenceOf(a, t0);
        long higher = fenceOf(b, t0.plusSeconds(1));
        String stateKey = "jgtest:{default:report}:state-v2";
        // the loss comes in a later Redis millisecond than b's grant: an epoch is dated in milliseconds and a token in
        // microseconds, so a token of the epoch's own millisecond counts as granted after it (and renews it)
        await().atMost(Duration.ofSeconds(5)).until(() -> now(redis) > higher / 1000);
        redis.flushAll();

        // t0 + 1 s ran before the loss (on b): both refuse it, and only the first dates the loss
        assertThat(a.run(JOB, t0.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        Object epoch = redis.call("HGET", stateKey, "e");
        long created = Long.parseLong(String.valueOf(epoch).split("\\|")[0]);
        // b comes in a later Redis millisecond, so a renewal would show as another creation time
        await().atMost(Duration.ofSeconds(5)).until(() -> now(redis) > created);
        assertThat(b.run(JOB, t0.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(redis.call("HGET", stateKey, "e")).isEqualTo(epoch);
        assertThat(fenceOf(a, now().plus(SKEW).plusSeconds(2))).isGreaterThan(higher);
    }

    private static long now(RedisServerProcess redis) {
        Object time = redis.call("TIME");
        return Long.parseLong(String.valueOf(((List<?>) time).get(0))) * 1000
                + Long.parseLong(String.valueOf(((List<?>) time).get(1))) / 1000;
    }

    @Test
    void anEvictedEpochIsALoss() {
        JobGuard a = node("a");
        Instant t1 = now();
        fenceOf(a, t1);
        try (RedisConnection c = connectionFactory.getConnection()) {
            // what maxmemory eviction would do to the job's keys: the epoch and the marker go
            for (byte[] key : c.keyCommands().keys("jgtest:*".getBytes(StandardCharsets.UTF_8))) {
                c.keyCommands().del(key);
            }
        }
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
    }

    @Test
    void aNewJobOnANewStoreRunsItsFirstFireTime() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t1 = now();
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(b.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(b.run(JOB, t1.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
    }

    @Test
    void aNodeThatNeverSawTheJobRefusesAfterALossTheFleetKnowsOf() {
        JobGuard a = node("a");
        Instant t1 = now();
        fenceOf(a, t1);
        redis.flushAll();
        // a's next publication of its clock lead re-creates the fleet's leads hash and marks it lost (a read the one
        // before): the loss is known without the job's epoch
        await().atMost(Duration.ofSeconds(5)).until(() -> String.valueOf(redis.call("HGET", "jgtest:leads", "~lineage"))
                .endsWith("|lost"));
        // c never saw the job nor the fleet before the loss: it does not take the store for a new one, it refuses
        JobGuard c = node("c");
        Instant t2 = t1.plusSeconds(1);
        assertThat(c.run(JOB, t2, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        // a knew the old epoch: the store lost t1's marker; t1 is refused for everybody
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(c.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
    }

    /**
     * A node that read the fleet before the loss but never called for the job, and whose first call for it comes right
     * after the loss (before any periodic re-publication): it reads the fleet's lineage before that call, so it refuses
     * the fire time another node ran just before the loss instead of taking the empty store for a new job.
     */
    @Test
    void aNodesFirstCallForAJobRightAfterALossRefusesWhatRanBeforeIt() {
        JobGuard a = node("a");
        JobGuard c = node("c");
        Instant t1 = now();
        // c takes part in the fleet (its first admission publishes and reads the leads) through another job only
        assertThat(c.run(JobOptions.builder("other", Duration.ofSeconds(10)).build(), t1, () -> { }))
                .isEqualTo(RunOutcome.RAN);
        fenceOf(a, t1);
        redis.flushAll();
        List<String> ran = new CopyOnWriteArrayList<>();
        assertThat(c.run(JOB, t1, () -> ran.add("c"))).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(ran).isEmpty();
    }

    @Test
    void batchTokensKeepGrowingAfterAFlush() {
        for (boolean spread : new boolean[] {false, true}) {
            RedisBatchLocks locks = RedisBatchLocks.create(connectionFactory, "jgtest",
                    BatchLockConfig.builder().node(NodeConfig.builder().nodeId("a").build()).spread(spread).build());
            closeables.add(locks);
            long before;
            try (BatchLease lease = locks.tryAcquire("sku", List.of("k1", "k2"), Duration.ofSeconds(10)).orElseThrow()) {
                before = lease.fencingToken();
            }
            redis.flushAll();
            try (BatchLease lease = locks.tryAcquire("sku", List.of("k1", "k2"), Duration.ofSeconds(10)).orElseThrow()) {
                assertThat(lease.fencingToken()).as("spread=%s", spread).isGreaterThan(before);
            }
        }
    }
}
