package io.jobguard.engine;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real redis-server: a refusal after a loss is reported once as HISTORY_LOST,
 * not also as an entry without expiry that blocks the job (the epoch has no TTL by design).
 */
@WithRedis
class HistoryLossLogIT {

    /** The engine's classes log under their own names, in this package: one appender here sees them all. */
    private static final String ENGINE_LOGGERS = "io.jobguard.internal.engine";


    private static final Duration TOLERANCE = Duration.ofMinutes(1);
    private static final JobOptions JOB = JobOptions.builder("report", Duration.ofSeconds(10)).build();

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    HistoryLossLogIT(RedisServerProcess redis) {
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
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .skewTolerance(TOLERANCE).build());
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    @Test
    void aRefusalAfterALossIsNotReportedAsAnEntryThatBlocksTheJob() {
        Logger engineLog = (Logger) LoggerFactory.getLogger(ENGINE_LOGGERS);
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
        // the loss's WARN names when the job runs again: this lone node (on time) knows its own lead, so within a
        // second of the flush, not skew-tolerance (1 min) later
        String warned = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("outcome HISTORY_LOST")).findFirst().orElseThrow();
        Matcher from = Pattern.compile("fire times from about (\\S+) on run again")
                .matcher(warned);
        assertThat(from.find()).as(warned).isTrue();
        assertThat(Instant.parse(from.group(1))).isBefore(Instant.now().plusSeconds(5));
    }
}
