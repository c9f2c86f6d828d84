package io.jobguard.engine;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.internal.KeepAlive;
import io.jobguard.memory.InMemoryLeaseStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failures that were logged at DEBUG (keep-alive renewals) or at WARN on every
 * call (listeners) now log at WARN once per job per minute.
 */
class NoSilentFailuresTest {

    /** The engine's classes log under their own names, in this package: one appender here sees them all. */
    private static final String ENGINE_LOGGERS = "io.jobguard.internal.engine";


    private final ListAppender<ILoggingEvent> engineLog = attach(ENGINE_LOGGERS);
    private final ListAppender<ILoggingEvent> keepAliveLog = attach(KeepAlive.class.getName());

    @AfterEach
    void detach() {
        ((Logger) LoggerFactory.getLogger(ENGINE_LOGGERS)).detachAppender(engineLog);
        ((Logger) LoggerFactory.getLogger(KeepAlive.class)).detachAppender(keepAliveLog);
    }

    @Test
    void aFailingListenerIsReportedAtWarnOncePerJobPerMinute() {
        AtomicInteger calls = new AtomicInteger();
        JobGuardListener broken = event -> {
            calls.incrementAndGet();
            throw new IllegalStateException("listener bug");
        };
        try (JobGuard guard = JobGuard.create(InMemoryLeaseStore.create(), JobGuardConfig.builder()
                .node(NodeConfig.builder().nodeId("n").build()).build())
                .addListener(broken)) {
            Instant t = Instant.parse("2026-01-01T10:00:00Z");
            for (int i = 0; i < 5; i++) {
                assertThat(guard.run(JobOptions.builder("report", Duration.ofSeconds(5))
                        .build(), t.plusSeconds(i), () -> { }))
                        .isEqualTo(RunOutcome.RAN);
            }
        }
        assertThat(calls).hasValue(5);
        List<String> warnings = warnings(engineLog, "listener");
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("failed on job 'report'").contains("listener bug");
    }

    @Test
    void failingRenewalsAreReportedAtWarnOncePerLease() throws InterruptedException {
        CountDownLatch lost = new CountDownLatch(1);
        AtomicInteger attempts = new AtomicInteger();
        try (KeepAlive keepAlive = new KeepAlive()) {
            keepAlive.start("run lease of job 'report'", Duration.ofMillis(600), () -> {
                attempts.incrementAndGet();
                throw new IllegalStateException("Redis down");
            }, lost::countDown);
            assertThat(lost.await(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(attempts.get()).isGreaterThanOrEqualTo(2);
        List<String> warnings = warnings(keepAliveLog, "renewing");
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("run lease of job 'report'").contains("Redis down");
    }

    private static ListAppender<ILoggingEvent> attach(String logger) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(logger)).addAppender(appender);
        return appender;
    }

    private static List<String> warnings(ListAppender<ILoggingEvent> appender, String containing) {
        return appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(containing)).toList();
    }
}
