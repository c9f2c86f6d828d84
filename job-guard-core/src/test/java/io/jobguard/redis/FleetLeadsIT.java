package io.jobguard.redis;

import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.jobguard.redis.LossProbes.CONFIGURED;
import static io.jobguard.redis.LossProbes.awaitRedis;
import static io.jobguard.redis.LossProbes.take;
import static io.jobguard.redis.LossProbes.twoNodesOnTime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The hard cases of judging fire times after Redis lost its data from the leads each node holds in memory
 * ({@link FleetLeads}, {@link LossWindows}), on a real redis-server: the node that could have run a fire time ahead
 * stops right after taking it, so nothing re-publishes its lead after the loss and only what the others knew before
 * the loss protects the fire time. Each node's fire times keep its lead (taken on time, or a fixed time ahead), as a
 * real node's do. The configured window ({@code skew-tolerance}) is one minute.
 */
@WithRedis
class FleetLeadsIT {

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final List<RedisLeaseStore> stores = new ArrayList<>();

    FleetLeadsIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    @BeforeEach
    void emptyRedis() {
        redis.flushAll();
    }

    @AfterEach
    void close() {
        stores.forEach(RedisLeaseStore::close);
        connectionFactory.destroy();
    }

    private RedisLeaseStore store() {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgtest");
        stores.add(store);
        return store;
    }

    /** Waits until the nodes' publications re-created the leads hash after a loss; returns its re-creation. */
    private Instant recreated() {
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> String.valueOf(redis.call("HGET", "jgtest:leads", "~lineage")).endsWith("|lost"));
        return Instant.ofEpochMilli(Long.parseLong(String.valueOf(redis.call("HGET", "jgtest:leads", "~lineage"))
                .split("\\|")[0]));
    }

    /**
     * Flushes; A (on time) fires once, learning of the loss, then fires at its own clock's {@code ranAhead}, a fire
     * time a stopped node ran ahead before the loss; returns that firing's answer.
     */
    private AcquireResult.Status flushThenAFires(RedisLeaseStore a, Instant ranAhead) {
        redis.flushAll();
        assertThat(take(a, "a", a.serverTime())).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, ranAhead);
        return take(a, "a", ranAhead);
    }

    @Test
    void aNodeThatJoinedJustBeforeTheLossWithALargerLeadIsKnownThoughItStopsRightAfterItsRun() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        // C joins 4 s ahead: its lead is above every lead the fleet knows, so it waits until A has read it
        RedisLeaseStore c = store();
        Instant ahead = c.serverTime().plusSeconds(4);
        assertThat(take(c, "c", ahead)).isEqualTo(AcquireResult.Status.ACQUIRED);
        c.close(); // C stops: it never re-publishes after the loss
        Instant flushed = a.serverTime();
        assertThat(flushThenAFires(a, ahead)).as("C ran it before the loss; A judged with B's lead alone would run it")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, flushed.plusMillis(4600)); // C's lead was at most 4 s
        assertThat(take(a, "a", a.serverTime())).as("beyond C's lead + margin").isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void aClockStepJustBeforeTheLossKeepsSkewTolerance() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        // B's wall clock steps 2 s ahead; it fires at once by its new clock and stops
        stepTwoSecondsAhead(b);
        steppedBTakesAFireTimeAheadAndStopsThenTheLossKeepsSkewTolerance(a, b);
    }

    @Test
    void aClockStepThePeriodicCheckSawFirstIsAnnouncedByTheNextAdmission() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        // B's clock steps 2 s ahead while it admits nothing: its periodic publication sees the step first
        stepTwoSecondsAhead(b);
        await().atMost(Duration.ofSeconds(5)).until(() -> publishedLead("b").equals("-1"));
        // B's next admission still waits until the fleet has read its unknown lead, so A cannot judge without it
        steppedBTakesAFireTimeAheadAndStopsThenTheLossKeepsSkewTolerance(a, b);
    }

    /** The lead field of a node's entry in the leads hash ('<published at>|<lead>|<lateness>'). */
    private String publishedLead(String node) {
        return String.valueOf(redis.call("HGET", "jgtest:leads", node)).split("\\|")[1];
    }

    private static void stepTwoSecondsAhead(RedisLeaseStore node) {
        node.fleetLeads().wallClock(() -> System.currentTimeMillis() + 2_000);
    }

    /** B, its clock stepped 2 s ahead, takes a fire time 2 s ahead and stops; after a flush A keeps skew-tolerance. */
    private void steppedBTakesAFireTimeAheadAndStopsThenTheLossKeepsSkewTolerance(RedisLeaseStore a, RedisLeaseStore b) {
        Instant ahead = b.serverTime().plusSeconds(2);
        assertThat(take(b, "b", ahead)).isEqualTo(AcquireResult.Status.ACQUIRED);
        b.close();
        assertThat(flushThenAFires(a, ahead)).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, ahead.plusSeconds(1));
        assertThat(take(a, "a", a.serverTime())).as("B's lead is unknown after its step: skew-tolerance applies")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
    }

    @Test
    void aPauseBetweenTheClockReadsIsNotAStep() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        // B's thread stalls 300 ms right after each wall-clock read: its wall clock minus its monotonic clock looks
        // 300 ms behind, as after a GC pause between the two reads; no clock stepped
        b.fleetLeads().wallClock(() -> {
            long read = System.currentTimeMillis();
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return read;
        });
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            assertThat(publishedLead("b")).as("B's published lead").isNotEqualTo("-1");
            return System.nanoTime() > until;
        });
    }

    @Test
    void nodesThatAllRestartAfterTheLossKnowNothingAndKeepSkewTolerance() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        Instant ahead = b.serverTime().plusSeconds(2);
        assertThat(take(b, "b", ahead)).isEqualTo(AcquireResult.Status.ACQUIRED);
        redis.flushAll();
        // A's and B's next publications re-create the leads hash and mark it lost (they saw the one before)
        await().atMost(Duration.ofSeconds(5)).until(() -> String.valueOf(redis.call("HGET", "jgtest:leads", "~lineage"))
                .endsWith("|lost"));
        a.close();
        b.close();
        // both restart: no memory of the job or the fleet; the job's epoch is gone too, so only the lost lineage tells
        RedisLeaseStore a2 = store();
        RedisLeaseStore b2 = store();
        awaitRedis(a2, ahead);
        assertThat(take(a2, "a", ahead)).as("B ran it before the loss").isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a2, ahead.plusMillis(500));
        assertThat(take(b2, "b", b2.serverTime())).isEqualTo(AcquireResult.Status.HISTORY_LOST);
    }

    @Test
    void aLossThatKeepsTheLeadsHashCountsFromTheEpochsRenewal() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        Instant now = a.serverTime();
        // a promoted replica that kept the epoch and the leads hash but missed the last grant: counter and marker
        Object counter = redis.call("HGET", "jgtest:{loss:report}:state-v2", "f");
        Instant lastGrant = now.plusMillis(100);
        assertThat(take(b, "b", lastGrant)).isEqualTo(AcquireResult.Status.ACQUIRED);
        redis.call("HSET", "jgtest:{loss:report}:state-v2", "f", String.valueOf(counter));
        redis.call("DEL", "jgtest:{loss:report}:fired:" + lastGrant.toEpochMilli());
        // B saw the lost token: it renews the epoch; the lost fire time stays refused, a later one is judged
        assertThat(take(b, "b", lastGrant)).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(take(a, "a", lastGrant)).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, lastGrant.plusMillis(1500));
        assertThat(take(a, "a", a.serverTime())).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    /**
     * A job of a longer period (a minute, a day) meets the loss at its first fire time after Redis returned: counted
     * from that acquisition (the epoch's creation) the fire time itself would be refused and the job would lose a
     * whole period; counted from the leads hash's re-creation, which came with the nodes' first publication after the
     * restart, it runs.
     */
    @Test
    void theFirstFireTimeOfALongerPeriodAfterRedisRestartedEmptyRuns() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        redis.restart(); // without persistence: the data is gone
        awaitRedis(a, recreated().plusMillis(1000));
        assertThat(take(a, "a", a.serverTime())).as("the minute job's first fire time after the restart")
                .isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    /**
     * A node that started after the job's last run (a daily job) but read the fleet before the loss: it never saw the
     * job's epoch, yet the loss emptied the leads hash it had read, so the job's first fire time after it runs.
     */
    @Test
    void aNodeThatNeverSawTheJobButKnewTheFleetBeforeTheLossRunsItsNextFireTime() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        RedisLeaseStore d = store();
        RunLeaseRequest other = new RunLeaseRequest(new JobId("loss", "other"), d.serverTime(), "d-token", "d",
                Duration.ofSeconds(5), Duration.ofMinutes(5), 0, CONFIGURED);
        assertThat(d.acquireRun(other).status()).isEqualTo(AcquireResult.Status.ACQUIRED); // D reads the fleet from now on
        redis.restart();
        awaitRedis(d, recreated().plusMillis(1000));
        assertThat(take(d, "d", d.serverTime())).as("the daily job's next fire time").isEqualTo(AcquireResult.Status.ACQUIRED);
    }
}
