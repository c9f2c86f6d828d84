package io.jobguard.quartz;

import io.jobguard.monitor.ScheduleAgreementMonitor;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two RAMJobStore nodes schedule the same guarded jobs: a cron job alike on both, and a simple trigger
 * that each node starts at its own time (so their fire times differ). The schedule check names the
 * simple-trigger job and only it.
 */
@WithRedis
class QuartzScheduleAgreementIT {

    private final RedisServerProcess redis;

    QuartzScheduleAgreementIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @Test
    void aSimpleTriggerStartedAtADifferentTimeOnEachNodeIsNamed() throws Exception {
        Instant start = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        try (QuartzNode a = QuartzNode.builder("a", redis, "schedules").build();
             QuartzNode b = QuartzNode.builder("b", redis, "schedules").build()) {
            schedule(a, start);
            schedule(b, start.plusMillis(1500));
            ScheduleAgreementMonitor onA = monitor(a);
            ScheduleAgreementMonitor onB = monitor(b);

            String nightlyOnA = QuartzSchedules.of(a.scheduler, a.listener).get("g.nightly");
            String pollOnA = QuartzSchedules.of(a.scheduler, a.listener).get("g.poll");
            assertThat(nightlyOnA).isEqualTo("cron \"0 0 2 * * ?\" UTC");
            assertThat(pollOnA).isEqualTo("every PT10S from " + start);
            assertThat(onA.checkNow()).isEmpty();
            assertThat(onB.checkNow()).isEqualTo(Map.of("g.poll", Map.of(pollOnA, List.of("a"))));
            onA.close();
            onB.close();
        }
    }

    private static void schedule(QuartzNode node, Instant pollStart) throws SchedulerException {
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Quick.class).withIdentity("nightly", "g").build(),
                TriggerBuilder.newTrigger().withIdentity("nightly", "g").withSchedule(CronScheduleBuilder
                        .cronSchedule("0 0 2 * * ?").inTimeZone(TimeZone.getTimeZone("UTC"))).build());
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Quick.class).withIdentity("poll", "g").build(),
                TriggerBuilder.newTrigger().withIdentity("poll", "g").startAt(Date.from(pollStart))
                        .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(10)).build());
    }

    private static ScheduleAgreementMonitor monitor(QuartzNode node) {
        return new ScheduleAgreementMonitor(node.guard, () -> QuartzSchedules.of(node.scheduler, node.listener),
                Duration.ofMinutes(1));
    }
}
