package io.jobguard.spring.boot;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The clock-skew check: this node's clock minus Redis TIME, fed to sinks, WARN above half the tolerance. */
@WithRedis
class ClockSkewMonitorIT {

    @Test
    void skewAboveHalfTheToleranceIsMeasuredRecordedAndWarnedAbout(RedisServerProcess redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        Logger logger = (Logger) LoggerFactory.getLogger(ClockSkewMonitor.class);
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        try (RedisLeaseStore store = RedisLeaseStore.create(factory);
             JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("ahead")
                     .build())
                     .clock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(3)))
                     .skewTolerance(Duration.ofSeconds(4)).build())) {
            List<Duration> recorded = new ArrayList<>();
            ClockSkewMonitor monitor = new ClockSkewMonitor(guard, Duration.ofMinutes(1), List.of(recorded::add));

            monitor.measure(); // the first call also opens the connection, which skews its round-trip correction
            recorded.clear();
            Duration skew = monitor.measure();

            assertThat(skew).isBetween(Duration.ofMillis(2500), Duration.ofMillis(3500));
            assertThat(recorded).containsExactly(skew);
            assertThat(logs.list).anySatisfy(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("node ahead clock differs from Redis TIME by PT");
            });
        } finally {
            logger.detachAppender(logs);
            factory.destroy();
        }
    }

    @Test
    void aFailedMeasurementIsLoggedNotThrown(RedisServerProcess redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        try (RedisLeaseStore store = RedisLeaseStore.create(factory);
             JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("n")
                     .build()).build())) {
            ClockSkewMonitor monitor = new ClockSkewMonitor(guard, Duration.ofMinutes(1), List.of());
            redis.stop();
            assertThat(monitor.measure()).isNull();
        } finally {
            factory.destroy();
        }
    }
}
