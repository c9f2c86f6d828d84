package io.jobguard.quartz;

import io.jobguard.RunOutcome;
import io.jobguard.micrometer.JobGuardMetrics;
import io.jobguard.micrometer.MetricNames;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Guarded Quartz jobs get the schedule gauges of {@link JobGuardMetrics} from their triggers, on a real Quartz
 * scheduler and a real Redis: a cron job's next fire time and the gap ahead, a simple trigger's interval, for jobs
 * scheduled before and after {@link QuartzScheduleGauges#publish}; a job that is not guarded gets none; the paused
 * gauge follows job-guard's pause.
 */
@WithRedis
class QuartzScheduleGaugesIT {

    private final RedisServerProcess redis;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private QuartzNode node;

    QuartzScheduleGaugesIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws Exception {
        if (node != null) {
            node.close();
        }
        registry.close();
    }

    @Test
    void cronAndSimpleTriggersOfGuardedJobsPublishNextFireTimePeriodAndPaused() throws Exception {
        node = QuartzNode.builder("a", redis, "quartz-gauges").recorder(new Recorder()).build();
        JobGuardMetrics metrics = new JobGuardMetrics(node.guard);
        metrics.bindTo(registry);
        // scheduled before the publication: a cron job guarded by its annotation, a job nobody guards
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Quick.class).withIdentity("cron", "g").build(),
                TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?")).build());
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Plain.class).withIdentity("unguarded", "g").build(),
                TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?")).build());

        QuartzScheduleGauges gauges = QuartzScheduleGauges.publish(node.scheduler, node.listener, metrics);
        // scheduled after it: a simple trigger, guarded by its JobDataMap entry
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Quick.class).withIdentity("simple", "g")
                        .usingJobData(ClusterSingletonListener.NAME, "simple-job").build(),
                TriggerBuilder.newTrigger().startAt(Date.from(Instant.now().plusSeconds(60)))
                        .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(3)).build());

        assertThat(gauges.published()).containsOnlyKeys("g.cron", "simple-job");
        Instant now = Instant.now();
        assertThat(gauge(MetricNames.JOB_NEXT_FIRE_TIME, "g.cron"))
                .isBetween(now.getEpochSecond() - 1.0, now.getEpochSecond() + 3.0);
        assertThat(gauge(MetricNames.JOB_PERIOD, "g.cron")).isEqualTo(2.0);
        assertThat(gauge(MetricNames.JOB_PAUSED, "g.cron")).isZero();
        assertThat(gauge(MetricNames.JOB_NEXT_FIRE_TIME, "simple-job"))
                .isBetween(now.getEpochSecond() + 58.0, now.getEpochSecond() + 61.0);
        assertThat(gauge(MetricNames.JOB_PERIOD, "simple-job")).isEqualTo(3.0);
        assertThat(registry.find(MetricNames.JOB_PERIOD).tag(MetricNames.TAG_JOB, "g.unguarded").gauge()).isNull();

        // the next fire time moves on as the trigger fires
        node.scheduler.start();
        double first = gauge(MetricNames.JOB_NEXT_FIRE_TIME, "g.cron");
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge(MetricNames.JOB_NEXT_FIRE_TIME, "g.cron") > first);

        node.guard.pause("g.cron", "test");
        await().atMost(Duration.ofSeconds(10)).until(() -> node.count(RunOutcome.PAUSED) > 0);
        assertThat(gauge(MetricNames.JOB_PAUSED, "g.cron")).isEqualTo(1.0);
    }

    private double gauge(String name, String job) {
        Gauge gauge = registry.find(name).tag(MetricNames.TAG_JOB, job).gauge();
        assertThat(gauge).as("%s of %s", name, job).isNotNull();
        return gauge.value();
    }
}
