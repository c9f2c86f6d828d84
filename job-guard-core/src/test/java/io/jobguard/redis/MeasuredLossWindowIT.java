package io.jobguard.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.store.AcquireResult;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;

import static io.jobguard.redis.LossProbes.awaitRedis;
import static io.jobguard.redis.LossProbes.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a real redis-server: after a FLUSHALL the refusal is judged from the fleet's clock leads each node held in
 * memory ({@link FleetLeads}, published every 500 ms) and counted from the leads hash's re-creation, not one
 * {@code skew-tolerance} from the loss's detection. Node A fires on time, B 3 s early, C 5 s early (C joining just
 * before the loss); the configured window is one minute.
 */
@WithRedis
class MeasuredLossWindowIT {

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final RedisLeaseStore a;
    private final RedisLeaseStore b;
    private final RedisLeaseStore c;

    MeasuredLossWindowIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
        this.a = RedisLeaseStore.create(connectionFactory, "jgtest");
        this.b = RedisLeaseStore.create(connectionFactory, "jgtest");
        this.c = RedisLeaseStore.create(connectionFactory, "jgtest");
    }

    @BeforeEach
    void emptyRedis() {
        redis.flushAll();
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        c.close();
        connectionFactory.destroy();
    }

    /**
     * A takes a fire time on time, B one 3 s ahead (the leads they keep); after A has read B's lead, C joins 5 s
     * ahead if asked, then Redis is flushed. Returns B's fire time and the flush's Redis time.
     */
    private Instant[] runThenFlush(boolean cJoinsJustBefore) {
        Instant now = a.serverTime();
        assertThat(take(a, "a", now)).isEqualTo(AcquireResult.Status.ACQUIRED);
        Instant ranByB = now.plusSeconds(3);
        assertThat(take(b, "b", ranByB)).isEqualTo(AcquireResult.Status.ACQUIRED);
        awaitRedis(a, now.plusMillis(3 * FleetLeads.INTERVAL_MILLIS));
        if (cJoinsJustBefore) {
            assertThat(take(c, "c", a.serverTime().plusSeconds(5))).isEqualTo(AcquireResult.Status.ACQUIRED);
        }
        Instant flushed = a.serverTime();
        redis.flushAll();
        return new Instant[] {ranByB, flushed};
    }

    @Test
    void theFirstFiringAfterTheLossBeyondTheFleetsLeadRunsAndAFireTimeThatMayHaveRunIsRefused() {
        Logger logger = (Logger) LoggerFactory.getLogger("io.jobguard.internal.redis.loss.LossWindows");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            Instant[] t = runThenFlush(false);
            awaitRedis(b, t[1].plusSeconds(1));
            // B's first firing after the loss (3 s ahead, as always): it learns of the loss, waits for the fleet's
            // re-publication and is judged: B's lead + 250 ms from the leads hash's re-creation, not 1 min
            assertThat(take(b, "b", b.serverTime().plusSeconds(3))).isEqualTo(AcquireResult.Status.ACQUIRED);
            assertThat(take(a, "a", t[0])).as("B ran it before the loss").isEqualTo(AcquireResult.Status.HISTORY_LOST);
        } finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.INFO)
                .extracting(ILoggingEvent::getFormattedMessage).first().asString()
                .contains("job 'report' (namespace 'loss')", "run again", "instead of skew-tolerance, 60000 ms");
    }

    @Test
    void aNodeWithALargerLeadThatJoinedJustBeforeTheLossWidensTheWindow() {
        Instant[] t = runThenFlush(true);
        // B's first firing after the loss, 3 s ahead as always: past A's and B's leads (3.25 s) from the loss, but C,
        // 5 s ahead, may have run it; B judges only once every live node re-published after the loss, C included
        awaitRedis(b, t[1].plusMillis(800));
        assertThat(take(b, "b", b.serverTime().plusSeconds(3))).as("the leads A and B knew (3.25 s) would let this run")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, t[1].plusMillis(5250 + FleetLeads.INTERVAL_MILLIS + 400));
        assertThat(take(a, "a", a.serverTime())).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void aNodeThatStartedAfterTheLossKnowsNoLeadsAndKeepsSkewTolerance() {
        Instant[] t = runThenFlush(false);
        b.close(); // B, which ran t[0] 3 s ahead before the loss, stops: it never re-publishes
        // A fires on time right after the flush: it dates the loss (the epoch) and is refused
        assertThat(take(a, "a", a.serverTime())).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, t[0]);
        // D started during the outage: it never saw the job nor the fleet before the loss, so it must not judge (from
        // what it sees, A's lead alone, it would run t[0] again)
        try (RedisLeaseStore d = RedisLeaseStore.create(connectionFactory, "jgtest")) {
            assertThat(take(d, "d", t[0])).isEqualTo(AcquireResult.Status.HISTORY_LOST);
            // its next attempt knows the lost epoch, still not the fleet before the loss
            assertThat(take(d, "d", t[0])).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        }
        // A knew B's lead before the loss: a fire time beyond it runs (counted from the leads hash's re-creation, at
        // most one publication interval after the flush)
        awaitRedis(a, t[1].plusMillis(3250 + FleetLeads.INTERVAL_MILLIS + 400));
        assertThat(take(a, "a", a.serverTime())).isEqualTo(AcquireResult.Status.ACQUIRED);
    }
}
