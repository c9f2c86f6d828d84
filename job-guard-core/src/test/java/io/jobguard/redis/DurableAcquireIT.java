package io.jobguard.redis;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Durable acquire on a real primary, replica and Sentinel: with durable acquire on, a firing runs
 * only once the replica acknowledged its lease, and is refused (STORE_ERROR, lease given back)
 * while the replica is stopped.
 */
@WithRedis
class DurableAcquireIT {

    private static RedisSentinelProcess sentinel;
    private LettuceConnectionFactory connectionFactory;
    private RedisLeaseStore store;
    private JobGuard guard;

    @BeforeAll
    static void startRedis() {
        sentinel = RedisSentinelProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        sentinel.close();
    }

    @AfterEach
    void close() {
        sentinel.replica().resume();
        if (guard != null) {
            guard.close();
        }
        if (store != null) {
            store.close();
        }
        if (connectionFactory != null) {
            connectionFactory.destroy();
        }
    }

    private JobGuard node(DurableAcquire durable) {
        connectionFactory = sentinel.connectionFactory();
        store = RedisLeaseStore.create(connectionFactory, "jgtest", durable);
        guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("a").build())
                .skewTolerance(Duration.ofSeconds(2)).build());
        return guard;
    }

    @Test
    void aFiringRunsOnceTheReplicaAcknowledgedAndIsRefusedWhileTheReplicaIsStopped() {
        JobGuard a = node(DurableAcquire.builder().replicas(1).timeout(Duration.ofMillis(500)).build());
        JobOptions job = JobOptions.builder("durable", Duration.ofSeconds(10)).build();
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        AtomicInteger runs = new AtomicInteger();
        assertThat(a.run(job, t, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);

        sentinel.replica().pause();
        assertThat(a.run(job, t.plusSeconds(1), runs::incrementAndGet)).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(runs).hasValue(1);
        // the refused firing gave its lease back: nothing holds the job
        assertThat(a.currentLease("durable")).isEmpty();

        sentinel.replica().resume();
        assertThat(a.run(job, t.plusSeconds(2), runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
        assertThat(runs).hasValue(2);
    }

    @Test
    void withoutDurableAcquireTheStoppedReplicaDoesNotMatter() {
        JobGuard a = node(DurableAcquire.defaults());
        sentinel.replica().pause();
        assertThat(a.run(JobOptions.builder("plain", Duration.ofSeconds(10)).build(), Instant.now(), () -> { }))
                .isEqualTo(RunOutcome.RAN);
    }

    @Test
    void throughJedisAStandaloneServerWithoutReplicasRefusesAndGivesTheLeaseBack(RedisServerProcess redis) {
        JedisConnectionFactory jedis = redis.jedisConnectionFactory();
        try (RedisLeaseStore durable = RedisLeaseStore.create(jedis, "jgtest", DurableAcquire.builder().replicas(1)
                .timeout(Duration.ofMillis(200)).build());
             JobGuard b = JobGuard.create(durable, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("b")
                     .build()).build())) {
            Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            assertThat(b.run(JobOptions.builder("jedis", Duration.ofSeconds(10)).build(), t, () -> { }))
                    .isEqualTo(RunOutcome.STORE_ERROR);
            assertThat(b.currentLease("jedis")).isEmpty();
        } finally {
            jedis.destroy();
        }
    }

    @Test
    void invalidSettingsNameTheCulprit() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DurableAcquire.builder().replicas(-1)
                .timeout(Duration.ofSeconds(1)).build())
                .hasMessageContaining("replicas");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DurableAcquire.builder().replicas(1)
                .timeout(Duration.ZERO).build())
                .hasMessageContaining("timeout");
    }
}
