package io.jobguard.quartz;

import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import java.time.Instant;
import java.util.Date;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;

/** Snapping a misfired cron firing back onto the schedule, so late nodes compete for the same T. */
class NominalFireTimesTest {

    private final NominalFireTimes fireTimes = new NominalFireTimes();

    @Test
    void anOnScheduleCronFireTimeIsKept() {
        Trigger everyTenSeconds = cron("0/10 * * * * ?");
        Instant t = Instant.parse("2026-11-22T12:00:10Z");
        assertThat(fireTimes.nominal(everyTenSeconds, Date.from(t))).isEqualTo(t);
    }

    @Test
    void aFireOnceNowMisfireTimeIsSnappedToTheLatestScheduledTimeBeforeIt() {
        Trigger everyTenSeconds = cron("0/10 * * * * ?");
        assertThat(fireTimes.nominal(everyTenSeconds, Date.from(Instant.parse("2026-11-22T12:00:17.345Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:10Z"));
        assertThat(fireTimes.nominal(everyTenSeconds, Date.from(Instant.parse("2026-11-22T12:00:19.999Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:10Z"));
        // a whole second that is not on the schedule
        assertThat(fireTimes.nominal(everyTenSeconds, Date.from(Instant.parse("2026-11-22T12:00:11Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:10Z"));
    }

    @Test
    void everySecondCronSnapsToTheSameSecond() {
        Trigger everySecond = cron("0/1 * * * * ?");
        assertThat(fireTimes.nominal(everySecond, Date.from(Instant.parse("2026-11-22T12:00:07.300Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:07Z"));
        assertThat(fireTimes.nominal(everySecond, Date.from(Instant.parse("2026-11-22T12:00:07.001Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:07Z"));
    }

    @Test
    void snappingUsesTheTriggersTimeZone() {
        Trigger dailyAtNineInTokyo = TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder
                .cronSchedule("0 0 9 * * ?").inTimeZone(TimeZone.getTimeZone("Asia/Tokyo"))).build();
        assertThat(fireTimes.nominal(dailyAtNineInTokyo, Date.from(Instant.parse("2026-11-22T03:30:12.5Z"))))
                .isEqualTo(Instant.parse("2026-11-22T00:00:00Z"));
    }

    @Test
    void nonCronTriggersKeepQuartzsTime() {
        Trigger simple = TriggerBuilder.newTrigger()
                .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(5)).build();
        Instant t = Instant.parse("2026-11-22T12:00:07.300Z");
        assertThat(fireTimes.nominal(simple, Date.from(t))).isEqualTo(t);
    }

    private static Trigger cron(String expression) {
        return TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder.cronSchedule(expression)
                .inTimeZone(TimeZone.getTimeZone("UTC"))).build();
    }
}
