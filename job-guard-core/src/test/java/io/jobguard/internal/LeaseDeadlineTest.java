package io.jobguard.internal;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The lease deadline on a hand-driven ticker: counted from send times, minus the margin, and sticky once passed. */
class LeaseDeadlineTest {

    private static final long S = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * S);

    @Test
    void countsFromTheSendTimeMinusATenthOfTheLease() {
        long sent = now.get();
        LeaseDeadline deadline = LeaseDeadline.startingAt(sent, Duration.ofSeconds(3), now::get);
        now.set(sent + 2_699_000_000L);
        assertThat(deadline.isLost()).isFalse();
        now.set(sent + 2_700_000_000L);
        assertThat(deadline.isLost()).isTrue();
    }

    @Test
    void marginIsCappedAtOneSecond() {
        assertThat(LeaseDeadline.margin(Duration.ofMinutes(10))).isEqualTo(Duration.ofSeconds(1));
        assertThat(LeaseDeadline.margin(Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aSlowReplyExtendsFromWhenTheRenewalWasSentNotWhenItsReplyArrived() {
        long acquired = now.get();
        LeaseDeadline deadline = LeaseDeadline.startingAt(acquired, Duration.ofSeconds(10), now::get);
        long renewalSent = acquired + 3 * S;
        now.set(acquired + 8 * S); // the reply took five seconds
        assertThat(deadline.extendFrom(renewalSent)).isTrue();
        now.set(renewalSent + 9 * S - 1);
        assertThat(deadline.isLost()).isFalse();
        now.set(renewalSent + 9 * S);
        assertThat(deadline.isLost()).isTrue();
    }

    @Test
    void aRenewalWhoseReplyArrivesAfterTheDeadlineDoesNotReviveTheLease() {
        long acquired = now.get();
        LeaseDeadline deadline = LeaseDeadline.startingAt(acquired, Duration.ofSeconds(10), now::get);
        long renewalSent = acquired + 3 * S;
        now.set(acquired + 9 * S); // the deadline (acquired + 9 s) has passed
        assertThat(deadline.extendFrom(renewalSent)).isFalse();
        now.set(acquired + 10 * S);
        assertThat(deadline.isLost()).isTrue();
        assertThat(deadline.nanosLeft()).isLessThanOrEqualTo(0);
    }

    @Test
    void markLostIsStickyAndReportsOnce() {
        LeaseDeadline deadline = LeaseDeadline.startingAt(now.get(), Duration.ofSeconds(10), now::get);
        assertThat(deadline.markLost()).isTrue();
        assertThat(deadline.markLost()).isFalse();
        assertThat(deadline.isLost()).isTrue();
        assertThat(deadline.extendFrom(now.get())).isFalse();
    }
}
