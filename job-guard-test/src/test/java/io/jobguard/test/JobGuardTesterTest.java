package io.jobguard.test;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.LeaseLostException;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.store.RunHistory.FireEntry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each scenario of the kit, run through a real engine: the outcome it must produce and what the job saw. */
@JobGuardTest
class JobGuardTesterTest {

    private static final JobOptions INVOICES = JobOptions.builder("invoices", Duration.ofMinutes(10)).build();
    private static final Instant T = JobGuardTester.START.plus(Duration.ofMinutes(5));

    private final AtomicInteger runs = new AtomicInteger();

    @Test
    void aFireTimeNobodyTookRunsHereAndIsRecordedRan(JobGuardTester tester) {
        assertThat(tester.fire(INVOICES, T, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);

        assertThat(runs).hasValue(1);
        assertThat(tester.outcome("invoices", T)).contains(RunOutcome.RAN);
        assertThat(tester.history("invoices")).singleElement().satisfies(entry -> {
            assertThat(entry.nominalFireTime()).isEqualTo(T);
            assertThat(entry.node()).isEqualTo(JobGuardTester.NODE_ID);
            assertThat(entry.outcome()).isEqualTo("RAN");
        });
    }

    @Test
    void aFireTimeAnotherNodeRanIsSkippedAlreadyRan(JobGuardTester tester) {
        tester.anotherNode("node-2").ran("invoices", T);

        assertThat(tester.fire(INVOICES, T, runs::incrementAndGet)).isEqualTo(RunOutcome.ALREADY_RAN);

        assertThat(runs).hasValue(0);
        assertThat(tester.history("invoices")).extracting(FireEntry::node, FireEntry::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("node-2", "RAN"));
        assertThat(tester.fire(INVOICES, T.plus(Duration.ofMinutes(5)), runs::incrementAndGet))
                .as("the next fire time is nobody's yet").isEqualTo(RunOutcome.RAN);
    }

    @Test
    void aFireTimeWhileAnotherNodeHoldsTheLeaseIsSkippedBusyAndRunsAfterItsRelease(JobGuardTester tester) {
        JobOptions quickGrace = INVOICES.toBuilder().busyGrace(Duration.ofMillis(50)).build();
        AnotherNode.HeldLease held = tester.anotherNode("node-2").holdsLease("invoices", T.minus(Duration.ofMinutes(5)));

        assertThat(tester.fire(quickGrace, T, runs::incrementAndGet)).isEqualTo(RunOutcome.BUSY);
        assertThat(runs).hasValue(0);

        assertThat(held.release()).isTrue();
        assertThat(tester.fire(quickGrace, T, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aFiringWhileTheStoreIsDownIsSkippedStoreErrorAndTheJobDoesNotRun(JobGuardTester tester) {
        tester.store().down();

        assertThat(tester.fire(INVOICES, T, runs::incrementAndGet)).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(runs).hasValue(0);

        tester.store().up();
        assertThat(tester.fire(INVOICES, T, runs::incrementAndGet)).as("nothing was written while down")
                .isEqualTo(RunOutcome.RAN);
    }

    @Test
    void aLeaseLostMidRunIsSeenByTheRunAndRefusesItsNextStep(JobGuardTester tester) {
        JobOptions shortLease = INVOICES.toBuilder().lease(Duration.ofMillis(300)).build();
        AtomicBoolean lostBefore = new AtomicBoolean(true);
        AtomicBoolean lostAfter = new AtomicBoolean();
        AtomicReference<Throwable> commit = new AtomicReference<>();

        RunOutcome outcome = tester.fire(shortLease, T, () -> {
            RunContext run = RunContext.current().orElseThrow();
            lostBefore.set(run.isLeaseLost());
            tester.loseLease("invoices");
            lostAfter.set(run.isLeaseLost());
            try {
                run.checkLease();
            } catch (LeaseLostException e) {
                commit.set(e);
                throw e;
            }
        });

        assertThat(lostBefore).isFalse();
        assertThat(lostAfter).isTrue();
        assertThat(commit.get()).isInstanceOf(LeaseLostException.class);
        assertThat(outcome).isEqualTo(RunOutcome.FAILED);
        assertThat(tester.history("invoices")).singleElement().extracting(FireEntry::outcome).isEqualTo("FAILED");
    }

    @Test
    void losingALeaseNobodyHoldsIsRefused(JobGuardTester tester) {
        assertThatThrownBy(() -> tester.loseLease("invoices")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no run of job 'invoices' holds its lease");
    }

    @Test
    void afterTheStoreLostItsHistoryAFireTimeThatMayHaveRunIsSkippedHistoryLost(JobGuardTester tester) {
        assertThat(tester.fire(INVOICES, T, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
        tester.clock().set(T.plus(Duration.ofSeconds(30)));

        tester.store().loseHistory();

        assertThat(tester.fire(INVOICES, T, runs::incrementAndGet)).isEqualTo(RunOutcome.HISTORY_LOST);
        assertThat(runs).as("never run again").hasValue(1);
        assertThat(tester.history("invoices")).singleElement().extracting(FireEntry::outcome)
                .isEqualTo("HISTORY_LOST");
        Instant afterTheWindow = tester.clock().instant().plus(tester.guard().config().skewTolerance());
        assertThat(tester.fire(INVOICES, afterTheWindow, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
    }

    @Test
    void theExtensionGivesOneEngineStoreAndClockPerTest(JobGuardTester tester, JobGuard guard, SimulatedLeaseStore store,
                                                       MutableClock clock) {
        assertThat(guard).isSameAs(tester.guard());
        assertThat(store).isSameAs(tester.store()).isSameAs(guard.store());
        assertThat(clock).isSameAs(tester.clock()).isSameAs(guard.config().clock());

        clock.advance(Duration.ofHours(1));
        assertThat(store.serverTime()).isEqualTo(JobGuardTester.START.plus(Duration.ofHours(1)));
    }
}
