package io.jobguard.engine;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What job-guard logs when the store fails or a key it did not write blocks a job: the line names
 * the Redis endpoint and carries Redis's own error text, and it comes once per job per minute with
 * a count of the suppressed repeats.
 */
@WithRedis
class StoreFailureLogIT {

    /** The engine's classes log under their own names, in this package: one appender here sees them all. */
    private static final String ENGINE_LOGGERS = "io.jobguard.internal.engine";


    private static final Instant T = Instant.parse("2026-11-23T12:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(10);

    private final RedisServerProcess redis;
    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-11-23T12:00:00Z"));
    private final Logger engineLog = (Logger) LoggerFactory.getLogger(ENGINE_LOGGERS);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private LettuceConnectionFactory connectionFactory;

    StoreFailureLogIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void captureLog() {
        lines.start();
        engineLog.addAppender(lines);
        connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
    }

    @AfterEach
    void release() {
        engineLog.detachAppender(lines);
        redis.ensureRunning();
        connectionFactory.destroy();
    }

    @Test
    void redisDownNamesTheEndpointOncePerJobPerMinuteWithTheCountOfSuppressedLines() {
        JobGuard guard = guard(connectionFactory, "down");
        JobOptions job = JobOptions.builder("invoices", LEASE).build();
        redis.stop();
        for (int i = 0; i < 5; i++) {
            assertThat(guard.run(job, T.plusSeconds(i), () -> { })).isEqualTo(RunOutcome.STORE_ERROR);
        }
        assertThat(guard.run(JobOptions.builder("reports", LEASE).build(), T, () -> { }))
                .isEqualTo(RunOutcome.STORE_ERROR);
        List<String> warnings = warnings();
        assertThat(warnings).as("one line per job, not one per firing").hasSize(2);
        assertThat(warnings.get(0)).contains("job 'invoices'", "STORE_ERROR",
                "Redis " + redis.host() + ":" + redis.port());
        assertThat(warnings.get(1)).contains("job 'reports'");

        clock.advance(Duration.ofSeconds(61));
        assertThat(guard.run(job, T.plusSeconds(10), () -> { })).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(warnings()).hasSize(3);
        assertThat(warnings().get(2)).contains("job 'invoices'", "[4 more like this suppressed in the last PT1M]");
    }

    @Test
    void aStoreFailureCarriesRedissOwnErrorTextNotOnlyTheClientsWrapper() {
        // An ACL user that may not run scripts: Redis answers NOPERM, Spring wraps it as "Error in execution".
        assertThat(redis.call("ACL", "SETUSER", "noscripts", "on", ">secret", "~*", "&*", "+@all", "-@scripting"))
                .isEqualTo("OK");
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
        server.setUsername("noscripts");
        server.setPassword("secret");
        LettuceConnectionFactory restricted = new LettuceConnectionFactory(server,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5))
                        .shutdownQuietPeriod(Duration.ZERO).shutdownTimeout(Duration.ofMillis(100)).build());
        restricted.afterPropertiesSet();
        restricted.start();
        try {
            JobGuard guard = guard(restricted, "acl");
            assertThat(guard.run(JobOptions.builder("invoices", LEASE).build(), T, () -> { }))
                    .isEqualTo(RunOutcome.STORE_ERROR);
            assertThat(warnings()).singleElement().asString().contains("STORE_ERROR", "NOPERM");
            try (RedisBatchLocks locks = RedisBatchLocks.create(restricted, "jgtest",
                    BatchLockConfig.builder().node(NodeConfig.builder().nodeId("a").build()).build())) {
                assertThatThrownBy(() -> locks.tryAcquire("sku", List.of("a", "b"), LEASE))
                        .isInstanceOf(LeaseStoreException.class).hasMessageContaining("NOPERM");
            }
        } finally {
            restricted.destroy();
        }
    }

    @Test
    void aForeignMarkerWithoutTtlIsAWarnNamingTheKeyOncePerJobPerMinute() {
        JobGuard guard = guard(connectionFactory, "foreign");
        String marker = "jgtest:{foreign:invoices}:fired:" + T.toEpochMilli();
        redis.call("SET", marker, "written by somebody else");
        for (int i = 0; i < 3; i++) {
            assertThat(guard.run(JobOptions.builder("invoices", LEASE).build(), T, () -> { }))
                    .isEqualTo(RunOutcome.ALREADY_RAN);
        }
        assertThat(warnings()).singleElement().asString()
                .contains("job 'invoices'", "ALREADY_RAN", "a value job-guard did not write", marker,
                        "'written by somebody else'", "no TTL");

        redis.call("LPUSH", "jgtest:{foreign:reports}:run", "a list where the run lease lives");
        assertThat(guard.run(JobOptions.builder("reports", LEASE).busyGrace(Duration.ZERO).build(), T, () -> { }))
                .isEqualTo(RunOutcome.BUSY);
        assertThat(warnings()).hasSize(2);
        assertThat(warnings().get(1)).contains("job 'reports'", "BUSY", "jgtest:{foreign:reports}:run",
                "non-string value");

        clock.advance(Duration.ofMinutes(1));
        assertThat(guard.run(JobOptions.builder("invoices", LEASE).build(), T, () -> { }))
                .isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(warnings()).hasSize(3);
        assertThat(warnings().get(2)).contains(marker, "[2 more like this suppressed in the last PT1M]");
    }

    @Test
    void aJobGuardMarkerWithATtlIsNoWarning() {
        JobGuard guard = guard(connectionFactory, "own");
        assertThat(guard.run(JobOptions.builder("invoices", LEASE).build(), T, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(guard.run(JobOptions.builder("invoices", LEASE).build(), T, () -> { }))
                .isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(warnings()).isEmpty();
    }

    private JobGuard guard(LettuceConnectionFactory factory, String namespace) {
        return JobGuard.create(RedisLeaseStore.create(factory, "jgtest"),
                JobGuardConfig.builder().namespace(namespace).node(NodeConfig.builder().nodeId("a").build())
                        .clock(clock).build());
    }

    private List<String> warnings() {
        return lines.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    /** A clock the test moves by hand, so "one minute later" needs no waiting. */
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
