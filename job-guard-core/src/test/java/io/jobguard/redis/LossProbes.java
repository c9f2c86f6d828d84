package io.jobguard.redis;

import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the tests of judging a loss do to their nodes (stores): fire the job {@code loss/report} once, wait for Redis'
 * clock, let two nodes on time read the fleet. The configured window ({@code skew-tolerance}) is one minute.
 */
final class LossProbes {

    static final Duration CONFIGURED = Duration.ofMinutes(1);
    static final JobId JOB = new JobId("loss", "report");

    private LossProbes() {
    }

    /** Takes the fire time and, when granted, ends the run at once (one run lease per job); returns the answer. */
    static AcquireResult.Status take(RedisLeaseStore store, String node, Instant fireTime) {
        RunLeaseRequest request = new RunLeaseRequest(JOB, fireTime, UUID.randomUUID().toString(), node,
                Duration.ofSeconds(5), Duration.ofMinutes(5), 0, CONFIGURED);
        AcquireResult.Status status = store.acquireRun(request).status();
        if (status == AcquireResult.Status.ACQUIRED) {
            assertThat(store.releaseRun(request, Duration.ZERO)).isTrue();
        }
        return status;
    }

    /** Waits until Redis' clock has passed {@code t} (answers that fail while Redis returns are retried). */
    static void awaitRedis(RedisLeaseStore store, Instant t) {
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> store.serverTime().isAfter(t));
    }

    /** A and B, on time, take a fire time each, then A reads the fleet for a few intervals. */
    static void twoNodesOnTime(RedisLeaseStore a, RedisLeaseStore b) {
        Instant now = a.serverTime();
        assertThat(take(a, "a", now)).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(b, "b", now.plusMillis(500))).isEqualTo(AcquireResult.Status.ACQUIRED);
        awaitRedis(a, now.plusMillis(3 * FleetLeads.INTERVAL_MILLIS));
    }
}
