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
class CronFireTimeSnapTest {

    private final CronFireTimeSnap snap = new CronFireTimeSnap();

    @Test
    void anOnScheduleCronFireTimeIsKept() {
        Trigger everyTenSeconds = cron("0/10 * * * * ?");
        Instant t = Instant.parse("2026-11-22T12:00:10Z");
        assertThat(snap.nominalFireTime(everyTenSeconds, Date.from(t))).isEqualTo(t);
    }

    @Test
    void aFireOnceNowMisfireTimeIsSnappedToTheLatestScheduledTimeBeforeIt() {
        Trigger everyTenSeconds = cron("0/10 * * * * ?");
        assertThat(snap.nominalFireTime(everyTenSeconds, Date.from(Instant.parse("2026-11-22T12:00:17.345Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:10Z"));
        assertThat(snap.nominalFireTime(everyTenSeconds, Date.from(Instant.parse("2026-11-22T12:00:19.999Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:10Z"));
        // a whole second that is not on the schedule
        assertThat(snap.nominalFireTime(everyTenSeconds, Date.from(Instant.parse("2026-11-22T12:00:11Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:10Z"));
    }

    @Test
    void everySecondCronSnapsToTheSameSecond() {
        Trigger everySecond = cron("0/1 * * * * ?");
        assertThat(snap.nominalFireTime(everySecond, Date.from(Instant.parse("2026-11-22T12:00:07.300Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:07Z"));
        assertThat(snap.nominalFireTime(everySecond, Date.from(Instant.parse("2026-11-22T12:00:07.001Z"))))
                .isEqualTo(Instant.parse("2026-11-22T12:00:07Z"));
    }

    @Test
    void snappingUsesTheTriggersTimeZone() {
        Trigger dailyAtNineInTokyo = TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder
                .cronSchedule("0 0 9 * * ?").inTimeZone(TimeZone.getTimeZone("Asia/Tokyo"))).build();
        assertThat(snap.nominalFireTime(dailyAtNineInTokyo, Date.from(Instant.parse("2026-11-22T03:30:12.5Z"))))
                .isEqualTo(Instant.parse("2026-11-22T00:00:00Z"));
    }

    @Test
    void aWeekdayScheduleSnapsAcrossTheWeekendAndAYearlyOneAcrossTheYear() {
        Trigger weekdaysAtNine = cron("0 0 9 ? * MON-FRI");
        // Monday 2026-11-23 08:59:59.5: the latest fire time is Friday 2026-11-20 09:00
        assertThat(snap.nominalFireTime(weekdaysAtNine, Date.from(Instant.parse("2026-11-23T08:59:59.500Z"))))
                .isEqualTo(Instant.parse("2026-11-20T09:00:00Z"));
        Trigger newYear = cron("0 0 0 1 1 ?");
        assertThat(snap.nominalFireTime(newYear, Date.from(Instant.parse("2026-12-31T23:59:59.900Z"))))
                .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void aScheduleWithNoTimeInTheLookBackKeepsQuartzsTime() throws Exception {
        // 29 February fires once in four years: none between 2025-03-01 and 2027-03-01
        org.quartz.CronExpression leapDay = new org.quartz.CronExpression("0 0 0 29 2 ? 2024");
        leapDay.setTimeZone(TimeZone.getTimeZone("UTC"));
        assertThat(CronFireTimeSnap.latestAtOrBefore(leapDay, Date.from(Instant.parse("2026-11-22T12:00:00.5Z"))))
                .isEqualTo(Date.from(Instant.parse("2024-02-29T00:00:00Z")));
        org.quartz.CronExpression past = new org.quartz.CronExpression("0 0 0 1 1 ? 2000");
        past.setTimeZone(TimeZone.getTimeZone("UTC"));
        assertThat(CronFireTimeSnap.latestAtOrBefore(past, Date.from(Instant.parse("2026-11-22T12:00:00.5Z"))))
                .as("no fire time within four years back").isNull();
    }

    @Test
    void nonCronTriggersKeepQuartzsTime() {
        Trigger simple = TriggerBuilder.newTrigger()
                .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(5)).build();
        Instant t = Instant.parse("2026-11-22T12:00:07.300Z");
        assertThat(snap.nominalFireTime(simple, Date.from(t))).isEqualTo(t);
    }

    private static Trigger cron(String expression) {
        return TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder.cronSchedule(expression)
                .inTimeZone(TimeZone.getTimeZone("UTC"))).build();
    }
}
