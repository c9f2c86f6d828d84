package io.jobguard.internal;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitedLogTest {

    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final RateLimitedLog limiter = new RateLimitedLog(clock, Duration.ofMinutes(1));

    @Test
    void oneLinePerKeyPerPeriodThenTheCountOfSuppressedOnes() {
        assertThat(limiter.admit("a")).isZero();
        assertThat(limiter.admit("a")).isEqualTo(-1);
        assertThat(limiter.admit("a")).isEqualTo(-1);
        assertThat(limiter.admit("b")).as("another key has its own window").isZero();
        clock.advance(Duration.ofSeconds(59));
        assertThat(limiter.admit("a")).as("still inside the minute").isEqualTo(-1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(limiter.admit("a")).as("three suppressed since the last line").isEqualTo(3);
        assertThat(limiter.admit("a")).isEqualTo(-1);
        clock.advance(Duration.ofMinutes(5));
        assertThat(limiter.admit("a")).isEqualTo(1);
        assertThat(limiter.admit("b")).isZero();
    }

    @Test
    void warnAppendsTheSuppressedCountToTheLineThatFollowsThem() {
        Logger logger = (Logger) LoggerFactory.getLogger("io.jobguard.test.RateLimitedLogTest");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            for (int i = 0; i < 5; i++) {
                limiter.warn(logger, "job-x", "job {} failed", "x");
            }
            clock.advance(Duration.ofMinutes(1));
            assertThat(limiter.warn(logger, "job-x", "job {} failed", "x")).isTrue();
            assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                    "job x failed", "job x failed [4 more like this suppressed in the last PT1M]");
        } finally {
            logger.detachAppender(lines);
        }
    }

    @Test
    void causeChainCarriesTheServersOwnWordsAndSkipsRepeatedMessages() {
        RuntimeException redis = new IllegalStateException("NOPERM this user has no permissions to run the 'evalsha' command");
        RuntimeException spring = new RuntimeException("Error in execution", redis);
        RuntimeException store = new RuntimeException("could not acquire run lease of ns:job: Error in execution", spring);
        assertThat(RateLimitedLog.causeChain(store)).isEqualTo("could not acquire run lease of ns:job: Error in "
                + "execution; caused by IllegalStateException: NOPERM this user has no permissions to run the "
                + "'evalsha' command");
        assertThat(RateLimitedLog.causeChain(new UncheckedIOException(new IOException())))
                .isEqualTo("java.io.IOException; caused by IOException");
        assertThat(RateLimitedLog.causeChain(new IllegalStateException())).isEqualTo("IllegalStateException");
    }

    @Test
    void aPeriodThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new RateLimitedLog(clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period");
    }

    /** A clock the test moves by hand. */
    private static final class SteppedClock extends Clock {
        private volatile Instant now;

        SteppedClock(Instant start) {
            this.now = start;
        }

        void advance(Duration step) {
            now = now.plus(step);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
