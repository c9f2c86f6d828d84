package io.jobguard.spring.firing;

import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.CronExpression;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

/** The cluster-wide fire-time grids every node must agree on. */
class ScheduleSpecTest {

    @Test
    void fixedRateGridIsMultiplesOfThePeriodSinceTheEpochPlusInitialDelayModPeriod() {
        ScheduleSpec spec = new ScheduleSpec(ScheduleSpec.Kind.FIXED_RATE, null, null, Duration.ofSeconds(10),
                Duration.ofSeconds(23));
        assertThat(spec.latestAtOrBefore(Instant.parse("2026-01-01T00:00:14.999Z")))
                .isEqualTo(Instant.parse("2026-01-01T00:00:13Z"));
        assertThat(spec.latestAtOrBefore(Instant.parse("2026-01-01T00:00:13Z")))
                .isEqualTo(Instant.parse("2026-01-01T00:00:13Z"));
        assertThat(spec.nextAfter(Instant.parse("2026-01-01T00:00:13Z"))).isEqualTo(Instant.parse("2026-01-01T00:00:23Z"));
    }

    @Test
    void cronLatestFireTimeLooksBackFarEnoughForRareSchedules() {
        ScheduleSpec yearly = new ScheduleSpec(ScheduleSpec.Kind.CRON, CronExpression.parse("0 0 0 1 1 *"),
                ZoneId.of("UTC"), null, Duration.ZERO);
        assertThat(yearly.latestAtOrBefore(Instant.parse("2026-11-22T09:00:00Z")))
                .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        ScheduleSpec everySecondInParis = new ScheduleSpec(ScheduleSpec.Kind.CRON, CronExpression.parse("* * * * * *"),
                ZoneId.of("Europe/Paris"), null, Duration.ZERO);
        assertThat(everySecondInParis.latestAtOrBefore(Instant.parse("2026-11-22T09:00:00.700Z")))
                .isEqualTo(Instant.parse("2026-11-22T09:00:00Z"));
        assertThat(everySecondInParis.nextAfter(Instant.parse("2026-11-22T09:00:00Z")))
                .isEqualTo(Instant.parse("2026-11-22T09:00:01Z"));
    }

    @Test
    void fixedDelayHasNoGridSoNowIsTheFireTime() {
        ScheduleSpec spec = new ScheduleSpec(ScheduleSpec.Kind.FIXED_DELAY, null, null, Duration.ofSeconds(1),
                Duration.ZERO);
        Instant now = Instant.parse("2026-11-22T09:00:00.123456Z");
        assertThat(spec.latestAtOrBefore(now)).isEqualTo(Instant.parse("2026-11-22T09:00:00.123Z"));
        assertThat(spec.nextAfter(now)).isNull();
    }

    @Test
    void thePeriodIsTheGapBetweenTheNextTwoFireTimesOrTheDelay() {
        ScheduleSpec weekdays = new ScheduleSpec(ScheduleSpec.Kind.CRON, CronExpression.parse("0 0 9 * * MON-FRI"),
                ZoneId.of("UTC"), null, Duration.ZERO);
        assertThat(weekdays.periodAfter(Instant.parse("2026-11-26T10:00:00Z"))).as("on a Thursday: Friday to Monday")
                .isEqualTo(Duration.ofDays(3));
        assertThat(weekdays.periodAfter(Instant.parse("2026-11-27T10:00:00Z"))).as("on a Friday: Monday to Tuesday")
                .isEqualTo(Duration.ofDays(1));
        ScheduleSpec yearly = new ScheduleSpec(ScheduleSpec.Kind.CRON, CronExpression.parse("0 0 0 1 1 *"),
                ZoneId.of("UTC"), null, Duration.ZERO);
        assertThat(yearly.periodAfter(Instant.parse("2026-11-22T09:00:00Z"))).isEqualTo(Duration.ofDays(365));
        assertThat(new ScheduleSpec(ScheduleSpec.Kind.FIXED_RATE, null, null, Duration.ofSeconds(10),
                Duration.ofSeconds(23)).periodAfter(Instant.EPOCH)).isEqualTo(Duration.ofSeconds(10));
        assertThat(new ScheduleSpec(ScheduleSpec.Kind.FIXED_DELAY, null, null, Duration.ofMillis(1500),
                Duration.ZERO).periodAfter(Instant.EPOCH)).isEqualTo(Duration.ofMillis(1500));
        assertThat(new ScheduleSpec(ScheduleSpec.Kind.ONE_TIME, null, null, null, Duration.ofSeconds(5))
                .periodAfter(Instant.EPOCH)).isNull();
        assertThat(new ScheduleSpec(ScheduleSpec.Kind.DISABLED, null, null, null, Duration.ZERO)
                .periodAfter(Instant.EPOCH)).isNull();
    }
}
