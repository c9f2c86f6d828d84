package io.jobguard.spring.firing;

import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nodes whose clocks and start times differ still name the same fixed-rate fire times; each firing
 * claims the time named for it even when the scheduler named the next one before the firing started.
 */
class FireTimeTriggerTest {

    private static final ScheduleSpec EVERY_5S = new ScheduleSpec(ScheduleSpec.Kind.FIXED_RATE, null, null,
            Duration.ofSeconds(5), Duration.ofSeconds(1));

    @Test
    void firstFireTimeIsTheFirstGridPointAtOrAfterTheStart() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T09:00:02.400Z"), ZoneOffset.UTC);
        FireTimeTrigger trigger = FireTimeTrigger.alignedRate(null, EVERY_5S, Duration.ZERO);
        assertThat(trigger.nextExecution(new SimpleTriggerContext(clock)))
                .isEqualTo(Instant.parse("2026-11-22T09:00:06Z"));
        // started 3.6 s from now: exactly on a grid point
        FireTimeTrigger onGrid = FireTimeTrigger.alignedRate(null, EVERY_5S, Duration.ofMillis(3600));
        assertThat(onGrid.nextExecution(new SimpleTriggerContext(clock))).isEqualTo(Instant.parse("2026-11-22T09:00:06Z"));
    }

    @Test
    void aRunThatOverrunsIsFollowedByTheNextGridPointButOlderOnesAreSkipped() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T09:00:08Z"), ZoneOffset.UTC);
        FireTimeTrigger trigger = FireTimeTrigger.alignedRate(null, EVERY_5S, Duration.ZERO);
        SimpleTriggerContext context = new SimpleTriggerContext(clock);
        context.update(Instant.parse("2026-11-22T09:00:06Z"), Instant.parse("2026-11-22T09:00:06Z"),
                Instant.parse("2026-11-22T09:00:07Z"));
        assertThat(trigger.nextExecution(context)).isEqualTo(Instant.parse("2026-11-22T09:00:11Z"));

        SimpleTriggerContext longAgo = new SimpleTriggerContext(clock);
        longAgo.update(Instant.parse("2026-11-22T08:00:01Z"), Instant.parse("2026-11-22T08:00:01Z"),
                Instant.parse("2026-11-22T09:00:07Z"));
        assertThat(trigger.nextExecution(longAgo)).isEqualTo(Instant.parse("2026-11-22T09:00:06Z"));
    }

    @Test
    void firingsClaimTheTimesInTheOrderTheyWereNamedEvenWhenTheNextIsAlreadyNamed() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T09:00:02Z"), ZoneOffset.UTC);
        FireTimeTrigger trigger = FireTimeTrigger.of(null, new CronTrigger("*/5 * * * * *", ZoneOffset.UTC));
        SimpleTriggerContext context = new SimpleTriggerContext(clock);
        Instant first = trigger.nextExecution(context);
        context.update(first, first, first);
        // a scheduler that runs firings on other threads names the next time before the first firing starts
        Instant second = trigger.nextExecution(context);
        assertThat(first).isEqualTo(Instant.parse("2026-11-22T09:00:05Z"));
        assertThat(second).isEqualTo(Instant.parse("2026-11-22T09:00:10Z"));
        assertThat(trigger.claim()).isEqualTo(first);
        assertThat(trigger.claim()).isEqualTo(second);
    }
}
