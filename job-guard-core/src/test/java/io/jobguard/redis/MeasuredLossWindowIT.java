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
 * Issue 16 item 2 on a real redis-server: after a FLUSHALL the refusal window is the fleet's measured lead
 * (published with the schedules) instead of the whole configured window, but only once every live node has
 * re-published after the loss; a node with a larger lead that joined unseen just before the loss widens it.
 * Node A fires on time, node B 3 s early, node C 5 s early; the configured window is one minute.
 */
@WithRedis
class MeasuredLossWindowIT {

    private static final Duration CONFIGURED = Duration.ofMinutes(1);
    /** Publications every second: claims live 3 s; a view counts for the measured window 1.25 s after the loss. */
    private static final Duration CLAIM_TTL = Duration.ofSeconds(3);
    private static final Duration SETTLED = CLAIM_TTL.dividedBy(3).plusMillis(LossWindows.MARGIN_MILLIS + 100);
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

    /** The others publish, then A, whose reply is its view of the fleet. */
    private void publishAll(boolean withC) {
        if (withC) {
            c.publishSchedule(JOB, "c", "cron", CLAIM_TTL);
        }
        b.publishSchedule(JOB, "b", "cron", CLAIM_TTL);
        a.publishSchedule(JOB, "a", "cron", CLAIM_TTL);
    }

    /** Takes one fire time per node with its lead, publishes, flushes; returns the epoch's start after the loss. */
    private Instant runThenFlush(boolean cSeenByA) {
        Instant now = a.serverTime();
        assertThat(take(a, "a", now.plusMillis(1))).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(b, "b", now.plusSeconds(3))).isEqualTo(AcquireResult.Status.ACQUIRED);
        publishAll(false);
        // C joins: it takes a fire time 5 s ahead; A has seen it only if it published before A's last view
        assertThat(take(c, "c", now.plusSeconds(5))).isEqualTo(AcquireResult.Status.ACQUIRED);
        c.publishSchedule(JOB, "c", "cron", CLAIM_TTL);
        if (cSeenByA) {
            a.publishSchedule(JOB, "a", "cron", CLAIM_TTL);
        }
        // A's views are timed in Redis milliseconds; the loss must come in a later millisecond than A's last view,
        // or that view is not "before" the epoch (on an idle machine the publish, the flush and the first acquire
        // after it can all fall in one millisecond)
        long lastView = a.serverTime().toEpochMilli();
        await().atMost(Duration.ofSeconds(5)).until(() -> a.serverTime().toEpochMilli() > lastView);
        redis.flushAll();
        Instant detected = a.serverTime();
        // the first acquire after the loss writes the 'lost' epoch; A cannot yet know the fleet: the configured window
        assertThat(take(a, "a", detected.plusSeconds(20))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        return detected;
    }

    /** Every live node re-publishes at its next check; A's view counts once one check interval has passed. */
    private void republishAfterLoss(Instant detected, boolean withC) {
        awaitSettled(detected);
        publishAll(withC);
    }

    private void awaitSettled(Instant detected) {
        await().atMost(Duration.ofSeconds(10)).until(() -> a.serverTime().isAfter(detected.plus(SETTLED)));
    }

    @Test
    void nodesThatLearnOfTheLossRepublishAtOnceSoTheFirstFiringOneIntervalLaterIsMeasured() {
        Instant detected = runThenFlush(true);
        // no scheduled check after the loss: each node's first refusal re-publishes its last schedule by itself
        assertThat(take(b, "b", detected.plusSeconds(20))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(take(c, "c", detected.plusSeconds(20))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        // while it settles A takes a view at every acquisition: more than it keeps, yet its view before the loss counts
        for (int i = 0; i < 12; i++) {
            a.publishSchedule(JOB, "a", "cron", CLAIM_TTL);
        }
        awaitSettled(detected);
        // A's next acquisition re-publishes first (its window is not measured yet) and takes that view
        assertThat(take(a, "a", detected.plusSeconds(5))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(take(a, "a", detected.plusMillis(5600))).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    /**
     * A loss that keeps the schedule claims (a promoted replica had them, or only the job's epoch was evicted): the
     * claims published before the loss say nothing of the grants after them, so they must not count as the nodes'
     * re-publication.
     */
    @Test
    void claimsPublishedBeforeTheLossDoNotCountAsRepublished() {
        Instant now = a.serverTime();
        assertThat(take(a, "a", now.plusMillis(1))).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(b, "b", now.plusSeconds(3))).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(c, "c", now.plusSeconds(5))).isEqualTo(AcquireResult.Status.ACQUIRED);
        publishAll(true);
        long lastView = a.serverTime().toEpochMilli();
        await().atMost(Duration.ofSeconds(5)).until(() -> a.serverTime().toEpochMilli() > lastView);
        redis.call("DEL", "jgtest:{loss:report}:epoch");
        Instant detected = a.serverTime();
        assertThat(take(a, "a", detected.plusSeconds(20))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitSettled(detected);
        // B's and C's claims (3 s to live) are still there, but from before the loss: the window stays configured
        assertThat(take(a, "a", detected.plusSeconds(30))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
    }

    @Test
    void withoutARepublicationOfEveryNodeSeenBeforeTheLossTheWindowStaysConfigured() {
        Instant detected = runThenFlush(true);
        // B re-publishes by itself at its first refusal; C never acquires again (it may have stopped)
        assertThat(take(b, "b", detected.plusSeconds(20))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitSettled(detected);
        assertThat(take(a, "a", detected.plusSeconds(30))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
    }

    @Test
    void afterTheLossAFireTimeLaterThanTheMeasuredLeadRunsAndEarlierOnesAreRefused() {
        Logger logger = (Logger) LoggerFactory.getLogger(LossWindows.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            measuredWindowRunsAfterTheLead();
        } finally {
            logger.detachAppender(logged);
        }
        // operators learn once per loss when fire times run again, and from when
        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.INFO)
                .extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                .contains("job 'report' (namespace 'loss')", "run again", "lead + 250 ms",
                        "instead of skew-tolerance, 60000 ms");
    }

    private void measuredWindowRunsAfterTheLead() {
        Instant detected = runThenFlush(true);
        republishAfterLoss(detected, true);
        // C's lead (5 s) bounds what may have run: its own fire time is refused, one after detection + 5.25 s runs
        assertThat(take(a, "a", detected.plusSeconds(5))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(take(a, "a", detected.plusMillis(5600))).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(a, "a", detected.plusSeconds(30))).as("30 s is inside the configured window, not the measured")
                .isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void aNodeWithALargerLeadThatJoinedUnseenJustBeforeTheLossWidensTheWindowOnceItRepublishes() {
        Instant detected = runThenFlush(false);
        // A and B re-publish at once, C not yet: a view this early must not narrow the window to B's lead
        publishAll(false);
        assertThat(take(a, "a", detected.plusSeconds(4))).as("only A and B re-published; 3.25 s would let this run")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
        republishAfterLoss(detected, true);
        assertThat(take(a, "a", detected.plusMillis(4900))).isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(take(a, "a", detected.plusMillis(5600))).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void aNodeSeenBeforeTheLossThatDoesNotRepublishKeepsTheConfiguredWindow() {
        Instant detected = runThenFlush(true);
        republishAfterLoss(detected, false);
        assertThat(take(a, "a", detected.plusSeconds(30))).as("C may have stopped after taking fire times ahead")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
    }
}
