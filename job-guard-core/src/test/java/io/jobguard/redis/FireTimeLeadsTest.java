package io.jobguard.redis;

import io.jobguard.store.JobId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The history-loss window from the leads seen: largest recent lead plus the margin, within the bound. */
class FireTimeLeadsTest {

    private static final JobId JOB = new JobId("default", "report");
    private static final Duration BOUND = Duration.ofMinutes(1);
    private static final Instant T = Instant.parse("2026-11-23T12:00:00Z");

    private long nanos = 0;
    private final FireTimeLeads leads = new FireTimeLeads(() -> nanos);

    @Test
    void withoutAnyLeadSeenTheWindowIsTheBound() {
        assertThat(leads.window(JOB, BOUND)).isEqualTo(BOUND);
    }

    @Test
    void theWindowIsTheLargestLeadPlusTheMarginAndALateTakeCountsAsNoLead() {
        leads.saw(JOB, T, T.plusMillis(700));
        assertThat(leads.window(JOB, BOUND)).isEqualTo(FireTimeLeads.MARGIN);
        leads.saw(JOB, T, T.minusMillis(3000));
        leads.saw(JOB, T.plusSeconds(1), T.minusMillis(1000));
        assertThat(leads.window(JOB, BOUND)).isEqualTo(Duration.ofMillis(3000).plus(FireTimeLeads.MARGIN));
        assertThat(leads.window(new JobId("default", "other"), BOUND)).isEqualTo(BOUND);
    }

    @Test
    void theWindowNeverExceedsTheBound() {
        leads.saw(JOB, T, T.minusSeconds(90));
        assertThat(leads.window(JOB, BOUND)).isEqualTo(BOUND);
    }

    @Test
    void aLeadNotSeenAgainIsForgottenAfterItGoesStale() {
        leads.saw(JOB, T, T.minusSeconds(30));
        nanos += FireTimeLeads.STALE.toNanos() + 1;
        assertThat(leads.window(JOB, BOUND)).isEqualTo(BOUND);
        leads.saw(JOB, T, T.minusSeconds(2));
        assertThat(leads.window(JOB, BOUND)).isEqualTo(Duration.ofSeconds(2).plus(FireTimeLeads.MARGIN));
    }
}
