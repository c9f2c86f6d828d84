package io.jobguard.micrometer;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The schedule gauges and the zero counters of {@link JobGuardMetrics} on an engine over a real Redis: a schedule
 * published before or after the binding, the paused flag through a pause, a store error and a fire time left to the
 * job's assigned node by the fleet spread.
 */
@WithRedis
class JobGuardMetricsIT {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLeaseStore store;
    private final JobGuard guard;

    JobGuardMetricsIT(RedisServerProcess redis) {
        connectionFactory = redis.connectionFactory(Duration.ofSeconds(1));
        store = RedisLeaseStore.create(connectionFactory, "jgtest");
        guard = JobGuard.create(store, JobGuardConfig.builder().namespace("metrics")
                .node(NodeConfig.builder().nodeId("metrics-node").build()).build());
    }

    @AfterEach
    void close() {
        guard.close();
        store.close();
        connectionFactory.destroy();
    }

    @Test
    void aScheduleIsPublishedBeforeOrAfterTheBindingWithTheJobsCountersAtZero() {
        Instant next = Instant.parse("2026-11-29T02:00:00Z");
        JobGuardMetrics metrics = new JobGuardMetrics(guard);
        metrics.schedule("early", () -> next, () -> Duration.ofHours(1));
        MeterRegistry registry = new SimpleMeterRegistry();
        metrics.bindTo(registry);
        metrics.schedule("late", () -> null, () -> Duration.ofMillis(1500));

        assertThat(gauge(registry, MetricNames.JOB_NEXT_FIRE_TIME, "early")).isEqualTo(next.getEpochSecond());
        assertThat(gauge(registry, MetricNames.JOB_PERIOD, "early")).isEqualTo(3600.0);
        assertThat(gauge(registry, MetricNames.JOB_NEXT_FIRE_TIME, "late")).as("no fire-time grid").isNaN();
        assertThat(gauge(registry, MetricNames.JOB_PERIOD, "late")).isEqualTo(1.5);
        for (String job : new String[] {"early", "late"}) {
            assertThat(gauge(registry, MetricNames.JOB_PAUSED, job)).isZero();
            for (RunOutcome outcome : RunOutcome.values()) {
                assertThat(registry.get(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, job)
                        .tag(MetricNames.TAG_OUTCOME, outcome.name()).tag(MetricNames.TAG_NAMESPACE, "metrics")
                        .counter().count()).as("%s %s", job, outcome).isZero();
            }
            assertThat(registry.get(MetricNames.LEASE_LOST).tag(MetricNames.TAG_JOB, job).counter().count()).isZero();
        }
        assertThatThrownBy(() -> metrics.schedule("early", () -> next, () -> Duration.ofHours(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'early' is published already");
    }

    @Test
    void theFirstFiringOfAJobWithoutAScheduleRegistersItsCountersAtZero() {
        MeterRegistry registry = new SimpleMeterRegistry();
        new JobGuardMetrics(guard).bindTo(registry);
        JobOptions job = JobOptions.builder("plain", Duration.ofSeconds(30)).build();
        assertThat(guard.run(job, Instant.now().truncatedTo(ChronoUnit.SECONDS), () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(registry.get(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, "plain")
                .tag(MetricNames.TAG_OUTCOME, "RAN").counter().count()).isEqualTo(1.0);
        assertThat(registry.get(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, "plain")
                .tag(MetricNames.TAG_OUTCOME, "MISSED").counter().count()).isZero();
        assertThat(registry.get(MetricNames.LEASE_LOST).tag(MetricNames.TAG_JOB, "plain").counter().count()).isZero();
        assertThat(registry.find(MetricNames.JOB_PAUSED).tag(MetricNames.TAG_JOB, "plain").gauge())
                .as("no schedule, no schedule gauges").isNull();
    }

    @Test
    void thePausedFlagFollowsTheDecisionsAndAStoreErrorLeavesIt(RedisServerProcess redis) {
        MeterRegistry registry = new SimpleMeterRegistry();
        JobGuardMetrics metrics = new JobGuardMetrics(guard);
        metrics.bindTo(registry);
        metrics.schedule("nightly", () -> null, () -> Duration.ofDays(1));
        JobOptions job = JobOptions.builder("nightly", Duration.ofSeconds(30)).build();
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        assertThat(guard.run(job, t, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(gauge(registry, MetricNames.JOB_PAUSED, "nightly")).isZero();
        assertThat(guard.pause("nightly", "JobGuardMetricsIT")).isTrue();
        assertThat(guard.run(job, t.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.PAUSED);
        assertThat(gauge(registry, MetricNames.JOB_PAUSED, "nightly")).isEqualTo(1.0);
        redis.stop();
        assertThat(guard.run(job, t.plusSeconds(2), () -> { })).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(gauge(registry, MetricNames.JOB_PAUSED, "nightly")).as("a store error says nothing about the pause")
                .isEqualTo(1.0);
    }

    @Test
    void aFireTimeLeftToTheAssignedNodeCountsAssignedElsewhereAndSetsThePausedFlagToZero() throws Throwable {
        // the fleet spread assigns "spread-left" to metrics-other among these two nodes (Assignment, a pure function)
        RedisLeaseStore otherStore = RedisLeaseStore.create(connectionFactory, "jgtest");
        try (JobGuard other = JobGuard.create(otherStore, JobGuardConfig.builder().namespace("metrics")
                .node(NodeConfig.builder().nodeId("metrics-other").build()).build())) {
            MeterRegistry registry = new SimpleMeterRegistry();
            JobGuardMetrics metrics = new JobGuardMetrics(guard);
            metrics.bindTo(registry);
            metrics.schedule("spread-left", () -> null, () -> Duration.ofSeconds(1));
            JobOptions job = JobOptions.builder("spread-left", Duration.ofSeconds(30)).busyGrace(Duration.ZERO)
                    .recovery(RecoveryOptions.builder().schedule(after -> after.truncatedTo(ChronoUnit.SECONDS)
                            .plusSeconds(1)).build()).build();
            Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            assertThat(guard.pause("spread-left", "JobGuardMetricsIT")).isTrue();
            assertThat(guard.run(job, t, () -> { })).as("not declared yet: it asks").isEqualTo(RunOutcome.PAUSED);
            assertThat(gauge(registry, MetricNames.JOB_PAUSED, "spread-left")).isEqualTo(1.0);

            assertThat(guard.declareScheduledJobs(List.of(job))).containsExactly("spread-left");
            assertThat(other.declareScheduledJobs(List.of(job))).containsExactly("spread-left");
            await().atMost(Duration.ofSeconds(10)).until(() -> guard.assignedNode("spread-left")
                    .equals(Optional.of("metrics-other")) && other.assignedNode("spread-left")
                    .equals(Optional.of("metrics-other")));
            // a fire time ahead of now: metrics-other does not fire it, so this node takes it over, not before T + 2 s
            Instant left = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            assertThat(guard.run(job, left, () -> { })).isEqualTo(RunOutcome.ASSIGNED_ELSEWHERE);
            assertThat(registry.get(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, "spread-left")
                    .tag(MetricNames.TAG_OUTCOME, "ASSIGNED_ELSEWHERE").counter().count()).isEqualTo(1.0);
            assertThat(gauge(registry, MetricNames.JOB_PAUSED, "spread-left"))
                    .as("this node asked nothing: the pause shows on the node that asks").isZero();
            // the take-over asks Redis, which refuses the fire time as paused
            await().atMost(Duration.ofSeconds(15)).until(() -> gauge(registry, MetricNames.JOB_PAUSED, "spread-left") == 1.0);
            assertThat(registry.get(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, "spread-left")
                    .tag(MetricNames.TAG_OUTCOME, "PAUSED").counter().count()).isEqualTo(2.0);
        } finally {
            otherStore.close();
        }
    }

    private static double gauge(MeterRegistry registry, String name, String job) {
        return registry.get(name).tag(MetricNames.TAG_JOB, job).tag(MetricNames.TAG_NAMESPACE, "metrics").gauge().value();
    }
}
