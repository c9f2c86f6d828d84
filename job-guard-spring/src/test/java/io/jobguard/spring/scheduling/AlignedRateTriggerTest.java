package io.jobguard.spring.scheduling;

import io.jobguard.spring.internal.ScheduleSpec;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.SimpleTriggerContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** Nodes whose clocks and start times differ still name the same fixed-rate fire times. */
class AlignedRateTriggerTest {

    private static final ScheduleSpec EVERY_5S = new ScheduleSpec(ScheduleSpec.Kind.FIXED_RATE, null, null,
            Duration.ofSeconds(5), Duration.ofSeconds(1));

    @Test
    void firstFireTimeIsTheFirstGridPointAtOrAfterTheStart() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T09:00:02.400Z"), ZoneOffset.UTC);
        AlignedRateTrigger trigger = new AlignedRateTrigger(EVERY_5S, clock.instant());
        assertThat(trigger.nextExecution(new SimpleTriggerContext(clock)))
                .isEqualTo(Instant.parse("2026-11-22T09:00:06Z"));
        AlignedRateTrigger onGrid = new AlignedRateTrigger(EVERY_5S, Instant.parse("2026-11-22T09:00:06Z"));
        assertThat(onGrid.nextExecution(new SimpleTriggerContext(clock))).isEqualTo(Instant.parse("2026-11-22T09:00:06Z"));
    }

    @Test
    void aRunThatOverrunsIsFollowedByTheNextGridPointButOlderOnesAreSkipped() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T09:00:08Z"), ZoneOffset.UTC);
        AlignedRateTrigger trigger = new AlignedRateTrigger(EVERY_5S, Instant.EPOCH);
        SimpleTriggerContext context = new SimpleTriggerContext(clock);
        context.update(Instant.parse("2026-11-22T09:00:06Z"), Instant.parse("2026-11-22T09:00:06Z"),
                Instant.parse("2026-11-22T09:00:07Z"));
        assertThat(trigger.nextExecution(context)).isEqualTo(Instant.parse("2026-11-22T09:00:11Z"));

        SimpleTriggerContext longAgo = new SimpleTriggerContext(clock);
        longAgo.update(Instant.parse("2026-11-22T08:00:01Z"), Instant.parse("2026-11-22T08:00:01Z"),
                Instant.parse("2026-11-22T09:00:07Z"));
        assertThat(trigger.nextExecution(longAgo)).isEqualTo(Instant.parse("2026-11-22T09:00:06Z"));
    }
}
