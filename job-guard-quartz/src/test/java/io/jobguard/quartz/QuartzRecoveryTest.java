package io.jobguard.quartz;

import io.jobguard.Delivery;
import io.jobguard.GuardType;
import io.jobguard.JobGuardConfig;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Quartz job's recovery options from its JobDataMap and its trigger's misfire instruction. */
class QuartzRecoveryTest {

    private static Trigger cron(CronScheduleBuilder schedule) {
        return TriggerBuilder.newTrigger().withSchedule(schedule).build();
    }

    @Test
    void triggerMisfireInstructionsMapWhereTheMeaningIsTheSame() {
        CronScheduleBuilder everyMinute = CronScheduleBuilder.cronSchedule("0 * * * * ?");
        assertThat(QuartzRecovery.fromTrigger(cron(everyMinute))).isNull();
        assertThat(QuartzRecovery.fromTrigger(cron(everyMinute.withMisfireHandlingInstructionDoNothing())))
                .isEqualTo(MisfirePolicy.SKIP);
        assertThat(QuartzRecovery.fromTrigger(cron(CronScheduleBuilder.cronSchedule("0 * * * * ?")
                .withMisfireHandlingInstructionFireAndProceed()))).isEqualTo(MisfirePolicy.RUN_LATEST);
        assertThat(QuartzRecovery.fromTrigger(cron(CronScheduleBuilder.cronSchedule("0 * * * * ?")
                .withMisfireHandlingInstructionIgnoreMisfires()))).isEqualTo(MisfirePolicy.RUN_ALL);
        SimpleScheduleBuilder every = SimpleScheduleBuilder.repeatSecondlyForever(5);
        assertThat(QuartzRecovery.fromTrigger(TriggerBuilder.newTrigger()
                .withSchedule(every.withMisfireHandlingInstructionNextWithRemainingCount()).build()))
                .isEqualTo(MisfirePolicy.SKIP);
        assertThat(QuartzRecovery.fromTrigger(TriggerBuilder.newTrigger()
                .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(5).withMisfireHandlingInstructionNowWithExistingCount())
                .build())).isNull();
    }

    /** The recovery a firing of the trigger gets for a plain job named {@code g.nightly} with these entries. */
    private static RecoveryOptions resolve(Map<String, ?> entries, Trigger trigger) {
        JobDataMap data = new JobDataMap(entries);
        JobDetail detail = JobBuilder.newJob(TestJobs.Plain.class).withIdentity("nightly", "g")
                .usingJobData(ClusterSingletonListener.ENABLED, "true").usingJobData(data).build();
        return new QuartzJobOptions(null, GuardType.RETURN, Duration.ofMinutes(1), null, JobGuardConfig.defaults())
                .firingOptions(detail, trigger, detail.getJobDataMap()).recovery();
    }

    @Test
    void jobDataMapEntriesWinAndAJobWithNeitherPolicyNorDeliveryIsAccountedForWithoutRunningLate() {
        for (String cron : List.of("0 0 2 * * ?", "* * * * * ?")) {
            RecoveryOptions accounted = resolve(Map.of(), cron(CronScheduleBuilder.cronSchedule(cron)));
            assertThat(accounted.misfirePolicy()).as(cron).isEqualTo(MisfirePolicy.SKIP);
            assertThat(accounted.delivery()).as(cron).isEqualTo(Delivery.AT_MOST_ONCE);
            assertThat(accounted.schedule()).as(cron).isNotNull();
        }
        RecoveryOptions options = resolve(Map.of(
                ClusterSingletonListener.MISFIRE_POLICY, "run_all", ClusterSingletonListener.DELIVERY, "AT_LEAST_ONCE",
                ClusterSingletonListener.CATCH_UP_WINDOW, "3h", ClusterSingletonListener.CATCH_UP_MAX, "5"),
                cron(CronScheduleBuilder.cronSchedule("0 0 2 * * ?").withMisfireHandlingInstructionDoNothing()));
        assertThat(options.misfirePolicy()).isEqualTo(MisfirePolicy.RUN_ALL);
        assertThat(options.delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
        assertThat(options.catchUpWindow()).isEqualTo(Duration.ofHours(3));
        assertThat(options.catchUpMax()).isEqualTo(5);
        // the grid is the cron expression's, also before the trigger's start time
        Instant t = Instant.parse("2020-01-01T00:00:00Z");
        assertThat(options.schedule().next(t)).isAfter(t).isBefore(t.plus(Duration.ofDays(1)).plusSeconds(1));
    }

    @Test
    void badEntriesAreRefusedNamingTheJobAndTheKey() {
        Trigger plain = cron(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"));
        assertThatThrownBy(() -> resolve(Map.of(ClusterSingletonListener.MISFIRE_POLICY, "LATER"), plain))
                .hasMessageContaining("jobguard.misfirePolicy of job 'g.nightly'").hasMessageContaining("LATER");
        assertThatThrownBy(() -> resolve(Map.of(ClusterSingletonListener.DELIVERY, "AT_MOST_ONCE",
                ClusterSingletonListener.CATCH_UP_MAX, "0"), plain))
                .hasMessageContaining("jobguard.catchUpMax of job 'g.nightly'");
        assertThatThrownBy(() -> resolve(Map.of(ClusterSingletonListener.DELIVERY, "AT_MOST_ONCE",
                ClusterSingletonListener.CATCH_UP_WINDOW, "40d"), plain))
                .hasMessageContaining("jobguard.catchUpWindow of job 'g.nightly' must be at most 30 days");
    }
}
