package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.RunOutcome;
import io.jobguard.micrometer.MetricNames;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The schedule gauges of every guarded {@code @Scheduled} job, on a started application with a real Redis: each
 * job's next fire time and period by its schedule and its counters at 0 (before any run of it), and the paused
 * flag following an operator's pause and resume.
 */
@WithRedis
class ScheduleGaugesIT {

    @Test
    void everyJobPublishesItsNextFireTimeAndPeriodAndAPauseIsSeen(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, ScheduleApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=gauges-node", "jobguard.namespace=gauges"))) {
            MeterRegistry meters = app.getBean(MeterRegistry.class);

            double now = Instant.now().toEpochMilli() / 1e3;
            assertThat(gauge(meters, MetricNames.JOB_PERIOD, "every-second")).isEqualTo(1.0);
            assertThat(gauge(meters, MetricNames.JOB_NEXT_FIRE_TIME, "every-second"))
                    .as("a whole second, at most one second ahead").isBetween(now, now + 1.5)
                    .satisfies(t -> assertThat(t % 1).isZero());

            Instant nextHour = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
            assertThat(gauge(meters, MetricNames.JOB_PERIOD, "hourly")).isEqualTo(3600.0);
            double hourly = gauge(meters, MetricNames.JOB_NEXT_FIRE_TIME, "hourly");
            assertThat(hourly).as("the next whole hour (or the one after, across the hour)")
                    .isIn(nextHour.getEpochSecond() * 1.0, nextHour.getEpochSecond() + 3600.0);
            assertThat(meters.find(MetricNames.JOB_LAST_RUN).tag(MetricNames.TAG_JOB, "hourly").gauge())
                    .as("the schedule gauges exist before the job's first run").isNull();
            for (RunOutcome outcome : RunOutcome.values()) {
                assertThat(meters.get(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, "hourly")
                        .tag(MetricNames.TAG_OUTCOME, outcome.name()).counter().count())
                        .as("the counters exist at 0 before the job's first firing: %s", outcome).isZero();
            }
            assertThat(meters.get(MetricNames.LEASE_LOST).tag(MetricNames.TAG_JOB, "hourly").counter().count()).isZero();

            assertThat(gauge(meters, MetricNames.JOB_PERIOD, "fixed-rate")).isEqualTo(2.0);
            assertThat(gauge(meters, MetricNames.JOB_NEXT_FIRE_TIME, "fixed-rate") % 2)
                    .as("the fixed-rate grid: multiples of the period since the epoch").isZero();
            assertThat(gauge(meters, MetricNames.JOB_PERIOD, "fixed-delay")).as("the delay").isEqualTo(1.5);
            assertThat(gauge(meters, MetricNames.JOB_NEXT_FIRE_TIME, "fixed-delay"))
                    .as("a fixed delay has no fire-time grid").isNaN();

            for (String job : List.of("every-second", "hourly", "fixed-rate", "fixed-delay")) {
                assertThat(gauge(meters, MetricNames.JOB_PAUSED, job)).as(job).isZero();
            }
            JobGuard guard = app.getBean(JobGuard.class);
            await().atMost(Duration.ofSeconds(5)).until(() -> meters.find(MetricNames.JOB_LAST_RUN)
                    .tag(MetricNames.TAG_JOB, "every-second").gauge() != null);
            assertThat(guard.pause("every-second", "ScheduleGaugesIT")).isTrue();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> gauge(meters, MetricNames.JOB_PAUSED, "every-second") == 1.0);
            assertThat(gauge(meters, MetricNames.JOB_PAUSED, "fixed-rate")).as("only the paused job").isZero();
            assertThat(gauge(meters, MetricNames.JOB_PERIOD, "every-second")).as("a pause keeps the schedule")
                    .isEqualTo(1.0);
            assertThat(guard.resume("every-second")).isTrue();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> gauge(meters, MetricNames.JOB_PAUSED, "every-second") == 0.0);
        }
    }

    private static double gauge(MeterRegistry meters, String name, String job) {
        Gauge gauge = meters.get(name).tag(MetricNames.TAG_JOB, job).tag(MetricNames.TAG_NAMESPACE, "gauges").gauge();
        return gauge.value();
    }
}
