package io.jobguard.engine;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine contract through Redis Sentinel (spring-data-redis {@code RedisSentinelConfiguration}),
 * plus a Sentinel failover between two fire times.
 */
@WithRedis
class JobGuardSentinelIT extends JobGuardContract {

    private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");

    private final RedisSentinelProcess sentinel;
    private final LettuceConnectionFactory connectionFactory;

    JobGuardSentinelIT(RedisSentinelProcess sentinel) {
        this.sentinel = sentinel;
        this.connectionFactory = sentinel.connectionFactory();
    }

    @AfterEach
    void closeConnections() {
        connectionFactory.destroy();
    }

    @Override
    protected RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @Test
    void afterAFailoverTheNextFireTimeRunsOnTheNewMasterAndTheReplicatedOneDoesNotRunAgain() {
        JobGuard guard = node("a");
        JobOptions job = JobOptions.builder("failover", Duration.ofSeconds(30)).build();
        AtomicInteger runs = new AtomicInteger();
        assertThat(guard.run(job, T, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
        // Replication is asynchronous; wait for the replica so that the failover itself loses nothing.
        assertThat((Long) sentinel.master().call("WAIT", "1", "5000")).isEqualTo(1L);

        sentinel.failOver();

        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> guard.run(job, T.plusSeconds(1), runs::incrementAndGet) == RunOutcome.RAN);
        assertThat(guard.run(job, T, runs::incrementAndGet)).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(runs).hasValue(2);
        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.RAN)
                .extracting(e -> e.fencingToken()).isSorted().doesNotHaveDuplicates();
    }
}
