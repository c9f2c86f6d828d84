package io.jobguard.quartz;

import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
import org.junit.jupiter.api.Test;
import org.quartz.JobKey;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the next recovery pass over a Quartz job runs, which jobs it passes over, and which triggers are its own.
 */
class QuartzRecoveryPassTest {

    private static final Instant NOW = Instant.parse("2026-03-01T02:00:00Z");
    private static final Duration RETRY = Duration.ofSeconds(4);

    @Test
    void withNothingPendingTheNextPassIsAPeriodLater() {
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(), true, RETRY)).isEqualTo(NOW.plus(QuartzRecoveryPass.PERIOD));
    }

    @Test
    void theEarliestPendingFireTimeBringsTheNextPassForward() {
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(NOW.plusSeconds(40), NOW.plusSeconds(7)), true, RETRY))
                .isEqualTo(NOW.plusSeconds(7));
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(NOW.plusSeconds(300)), true, RETRY))
                .as("pending after the period").isEqualTo(NOW.plus(QuartzRecoveryPass.PERIOD));
    }

    @Test
    void aPassThatDidNotReachTheStoreIsRetriedAfterTheBackOffUnlessAPendingFireTimeIsEarlier() {
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(NOW.plusSeconds(30)), false, RETRY)).isEqualTo(NOW.plus(RETRY));
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(NOW.plusSeconds(2)), false, RETRY)).isEqualTo(NOW.plusSeconds(2));
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(), true, RETRY)).as("answered: no back-off")
                .isEqualTo(NOW.plus(QuartzRecoveryPass.PERIOD));
    }

    @Test
    void theNextPassIsNeverSoonerThanTheMinimumDelay() {
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(NOW.minusSeconds(3)), true, RETRY))
                .isEqualTo(NOW.plus(QuartzRecoveryPass.MIN_DELAY));
        assertThat(QuartzRecoveryPass.nextPass(NOW, List.of(NOW.plusMillis(50)), false, Duration.ZERO))
                .isEqualTo(NOW.plus(QuartzRecoveryPass.MIN_DELAY));
    }

    @Test
    void thePassGoesOverJobsWithARecoveryOfLostFireTimes() {
        JobOptions recovering = JobOptions.builder("g.nightly", Duration.ofSeconds(10))
                .recovery(RecoveryOptions.builder().build()).build();
        JobOptions plain = JobOptions.builder("g.nightly", Duration.ofSeconds(10)).build();
        assertThat(QuartzRecoveryPass.passesOver(recovering)).isTrue();
        assertThat(QuartzRecoveryPass.passesOver(plain)).isFalse();
    }

    @Test
    void aPassTriggerIsKnownByItsGroupOrItsEntry() {
        JobKey job = JobKey.jobKey("nightly", "g");
        assertThat(QuartzRecoveryPass.isPass(TriggerBuilder.newTrigger().forJob(job)
                .withIdentity("g.nightly@a", QuartzRecoveryPass.GROUP).build())).isTrue();
        assertThat(QuartzRecoveryPass.isPass(TriggerBuilder.newTrigger().forJob(job)
                .usingJobData(QuartzRecoveryPass.MARKER, "1").build())).isTrue();
        assertThat(QuartzRecoveryPass.isPass(TriggerBuilder.newTrigger().forJob(job).build())).isFalse();
    }
}
