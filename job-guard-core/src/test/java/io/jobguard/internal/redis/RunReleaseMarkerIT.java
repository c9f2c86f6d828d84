package io.jobguard.internal.redis;

import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run-release.lua} keeps the fire-time marker at least the retention past the end of the run
 * and never shortens it: with one {@code PEXPIRE ... GT} on Redis 7, with {@code PTTL} and
 * {@code PEXPIRE} on Redis 6.2 (the embedded-Redis run of this test).
 */
@WithRedis
class RunReleaseMarkerIT {

    private static final String PREFIX = "jgmarker";
    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final RedisLeaseStore store;

    RunReleaseMarkerIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
        this.store = RedisLeaseStore.create(connectionFactory, PREFIX);
    }

    @AfterEach
    void close() {
        store.close();
        connectionFactory.destroy();
    }

    @Test
    void theMarkerOutlivesTheReleaseByTheRetentionAndTheReleaseNeverShortensIt() {
        JobId job = new JobId("shop", "short-" + UUID.randomUUID());
        // marker TTL at acquire: lease 60 s + retention 1 s; the release does not touch it
        RunLeaseRequest longMarker = request(job, Duration.ofSeconds(60), Duration.ofSeconds(1));
        assertThat(store.acquireRun(longMarker).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(store.releaseRun(longMarker, Duration.ZERO)).isTrue();
        assertThat(markerTtl(job)).as("a marker living longer than the retention keeps its TTL").isGreaterThan(50_000L);

        // a renewal moves the marker with the lease, so a release (always before the lease expires) leaves it at
        // least the retention ahead: lease 60 s renewed, retention 120 s
        JobId other = new JobId("shop", "extend-" + UUID.randomUUID());
        RunLeaseRequest renewed = request(other, Duration.ofSeconds(60), Duration.ofSeconds(120));
        assertThat(store.acquireRun(renewed).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        redis.call("PEXPIRE", marker(other), "1000");
        assertThat(store.renewRun(renewed)).isTrue();
        assertThat(store.releaseRun(renewed, Duration.ZERO)).isTrue();
        assertThat(markerTtl(other)).isGreaterThan(170_000L).isLessThanOrEqualTo(180_000L);

        // a marker somebody made persistent stays persistent; the lease is gone either way
        JobId persistent = new JobId("shop", "persist-" + UUID.randomUUID());
        RunLeaseRequest kept = request(persistent, Duration.ofSeconds(60), Duration.ofSeconds(120));
        assertThat(store.acquireRun(kept).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        redis.call("PERSIST", marker(persistent));
        assertThat(store.releaseRun(kept, Duration.ZERO)).isTrue();
        assertThat(markerTtl(persistent)).isEqualTo(-1L);
        assertThat(redis.call("EXISTS", PREFIX + ":{shop:" + persistent.name() + "}:run")).isEqualTo(0L);
    }

    private static RunLeaseRequest request(JobId job, Duration lease, Duration retention) {
        return new RunLeaseRequest(job, T, UUID.randomUUID().toString(), "n1", lease, retention, 20);
    }

    private static String marker(JobId job) {
        return PREFIX + ":{" + job.namespace() + ":" + job.name() + "}:fired:" + T.toEpochMilli();
    }

    private long markerTtl(JobId job) {
        return (Long) redis.call("PTTL", marker(job));
    }
}
