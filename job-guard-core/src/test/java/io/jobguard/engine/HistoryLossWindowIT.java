package io.jobguard.engine;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16 item 2, the width of the refusal after a loss, on a real redis-server: fire times that
 * may have run before the loss are those the fleet could have taken before it, so the window is the
 * largest lead (fire time minus the Redis time it was taken at) the node saw, plus a margin, not the
 * whole skew tolerance. The fault suite's one-minute tolerance used to refuse a minute of an
 * every-second job's fire times that never ran (misses outside the fault window).
 */
@WithRedis
class HistoryLossWindowIT {

    /** As in the fault suite: far wider than the fleet's real lead. */
    private static final Duration TOLERANCE = Duration.ofMinutes(1);
    private static final JobOptions JOB = JobOptions.of("report", Duration.ofSeconds(10));

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    HistoryLossWindowIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        connectionFactory.destroy();
    }

    private JobGuard node(String id) {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgtest");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.custom().nodeId(id).skewTolerance(TOLERANCE).build());
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    @Test
    void withFireTimesTakenOnTimeOnlyTheFireTimesBeforeTheLossPlusTheMarginAreRefused() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t1 = now();
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(b.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);

        redis.flushAll();

        // t1 ran before the loss: refused
        assertThat(b.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        // nobody took a fire time ahead of it: 4 s after the loss is past every lead seen (0) plus the
        // margin, far inside the minute of tolerance that used to be refused
        Instant later = now().plusSeconds(4);
        assertThat(b.run(JOB, later, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(a.run(JOB, later.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
    }

    @Test
    void aFireTimeTakenAheadWidensTheWindowForEveryNodeThatSawIt() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        // a's clock runs 10 s ahead: it takes the fire time 10 s before it comes; b sees who took it
        Instant ahead = Instant.now().plusSeconds(10).truncatedTo(ChronoUnit.MILLIS);
        assertThat(a.run(JOB, ahead, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(b.run(JOB, ahead, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);

        redis.flushAll();

        // a fire time 5 s after the loss may have been taken by a before the loss: refused by both
        Instant soon = now().plusSeconds(5);
        int[] runs = {0};
        assertThat(b.run(JOB, soon, () -> runs[0]++)).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(a.run(JOB, soon, () -> runs[0]++)).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(runs[0]).isZero();
        // past the lead plus the margin, it runs
        assertThat(b.run(JOB, now().plusSeconds(14), () -> { })).isEqualTo(RunOutcome.RAN);
    }

    @Test
    void aNodeThatSawNoFireTimeTakenRefusesTheWholeTolerance() {
        JobGuard a = node("a");
        Instant t1 = now();
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.RAN);
        redis.flushAll();
        assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        // c joins after the loss: it has measured nothing, so it keeps to the skew tolerance
        JobGuard c = node("c");
        assertThat(c.run(JOB, now().plusSeconds(4), () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(a.run(JOB, now().plusSeconds(4), () -> { })).isEqualTo(RunOutcome.RAN);
    }

    @Test
    void aRefusalAfterALossIsNotReportedAsAnEntryThatBlocksTheJob() {
        Logger engineLog = (Logger) LoggerFactory.getLogger(JobGuard.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        engineLog.addAppender(lines);
        try {
            JobGuard a = node("a");
            Instant t1 = now();
            assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.RAN);
            redis.flushAll();
            assertThat(a.run(JOB, t1, () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        } finally {
            engineLog.detachAppender(lines);
        }
        // the epoch has no TTL by design; the refusal is the loss's own WARN, not "blocks the job"
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                .anyMatch(m -> m.contains("outcome HISTORY_LOST"))
                .noneMatch(m -> m.contains("blocks the job"));
    }
}
