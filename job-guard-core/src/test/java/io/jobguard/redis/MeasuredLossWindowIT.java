package io.jobguard.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

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

    private static final Duration CONFIGURED = Duration.ofMinutes(1);
    private static final JobId JOB = new JobId("loss", "report");

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

    /** Takes the fire time and, when granted, ends the run at once (one run lease per job). */
    private static AcquireResult.Status take(RedisLeaseStore store, String node, Instant fireTime) {
        RunLeaseRequest request = new RunLeaseRequest(JOB, fireTime, UUID.randomUUID().toString(), node,
                Duration.ofSeconds(5), Duration.ofMinutes(5), 0, CONFIGURED);
        AcquireResult.Status status = store.acquireRun(request).status();
        if (status == AcquireResult.Status.ACQUIRED) {
            assertThat(store.releaseRun(request, Duration.ZERO)).isTrue();
        }
        return status;
    }

    /** A and B take fire times (B 3 s ahead) and read each other's leads; C (5 s ahead) joins just before the flush if asked. */
    private Instant runThenFlush(boolean cJoinsJustBefore) {
        Instant now = a.serverTime();
        assertThat(take(a, "a", now.plusMillis(1))).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(b, "b", now.plusSeconds(3))).isEqualTo(AcquireResult.Status.ACQUIRED);
        // two publication intervals: B has published the lead of its grant and A has read it
        Instant published = now.plusMillis(3 * FleetLeads.INTERVAL_MILLIS);
        await().atMost(Duration.ofSeconds(5)).until(() -> a.serverTime().isAfter(published));
        if (cJoinsJustBefore) {
            assertThat(take(c, "c", a.serverTime().plusSeconds(5))).isEqualTo(AcquireResult.Status.ACQUIRED);
        }
        redis.flushAll();
        return a.serverTime();
    }

    @Test
    void aFireTimeBeyondTheFleetsLeadRunsAtTheFirstFiringAfterTheLossAndEarlierOnesAreRefused() {
        Logger logger = (Logger) LoggerFactory.getLogger(LossWindows.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            Instant flushed = runThenFlush(false);
            // the first firing after the loss learns of it, waits for the fleet's re-publication and is judged:
            // 20 s is inside skew-tolerance (1 min) but beyond B's lead (3 s + 250 ms)
            assertThat(take(a, "a", flushed.plusSeconds(20))).isEqualTo(AcquireResult.Status.ACQUIRED);
            assertThat(take(b, "b", flushed.plusSeconds(2))).as("B may have run it before the loss")
                    .isEqualTo(AcquireResult.Status.HISTORY_LOST);
            assertThat(take(a, "a", flushed.plusMillis(4000))).isEqualTo(AcquireResult.Status.ACQUIRED);
        } finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.INFO)
                .extracting(ILoggingEvent::getFormattedMessage).first().asString()
                .contains("job 'report' (namespace 'loss')", "run again", "instead of skew-tolerance, 60000 ms");
    }

    @Test
    void aNodeWithALargerLeadThatJoinedJustBeforeTheLossWidensTheWindow() {
        Instant flushed = runThenFlush(true);
        // A read the fleet before C's grant; C re-publishes its 5-s lead after the loss and A waits for that
        assertThat(take(a, "a", flushed.plusMillis(4500))).as("B's lead alone (3.25 s) would let this run")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(take(a, "a", flushed.plusMillis(5600))).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void aNodeThatStartedAfterTheLossKnowsNoLeadsAndKeepsSkewTolerance() {
        Instant flushed = runThenFlush(false);
        assertThat(take(a, "a", flushed.plusSeconds(20))).isEqualTo(AcquireResult.Status.ACQUIRED);
        // D started during the outage: it never saw the job nor the fleet before the loss, so it must not judge
        try (RedisLeaseStore d = RedisLeaseStore.create(connectionFactory, "jgtest")) {
            assertThat(take(d, "d", flushed.plusSeconds(30))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        }
        assertThat(take(a, "a", flushed.plusSeconds(31))).isEqualTo(AcquireResult.Status.ACQUIRED);
    }
}
