package io.jobguard.engine;

import io.jobguard.Fired;
import io.jobguard.FiringBody;
import io.jobguard.FiringEnd;
import io.jobguard.FiringObserver;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.LastFiring;
import io.jobguard.NodeConfig;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.memory.InMemoryLeaseStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link JobGuard#fire}: one call admits, runs, finishes and records a firing once, whatever the body's
 * shape (synchronous, {@code CompletionStage}, callback), on the in-memory store.
 */
class FireTest {

    private final JobGuard guard = JobGuard.create(InMemoryLeaseStore.create(),
            JobGuardConfig.builder().node(NodeConfig.builder().nodeId("n1").build()).build());
    private final JobOptions job = JobOptions.builder("fire", Duration.ofSeconds(30)).build();
    private final Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final Heard heard = new Heard();

    @AfterEach
    void close() {
        guard.close();
    }

    @Test
    void aSynchronousBodyRunsUnderItsPermitAndIsRecordedOnceWhenItReturns() throws Throwable {
        Fired<String> fired = guard.fire(job, t, FiringBody.of(() -> {
            assertThat(RunContext.current()).hasValueSatisfying(run -> assertThat(run.nominalFireTime()).isEqualTo(t));
            assertThat(guard.activeLeases()).isEqualTo(1);
            return "done";
        }), heard);

        assertThat(fired.started()).isTrue();
        assertThat(fired.value()).isEqualTo("done");
        assertThat(guard.activeLeases()).isZero();
        assertThat(RunContext.current()).isEmpty();
        assertThat(heard.started).hasSize(1);
        assertThat(heard.ended).containsExactly(RunOutcome.RAN);
        assertThat(guard.lastFiring("fire")).contains(new LastFiring(t, RunOutcome.RAN));
    }

    @Test
    void aRefusedFireTimeStartsNoBodyAndRecordsItsRefusal() throws Throwable {
        guard.run(job, t, () -> { });
        AtomicReference<Boolean> ran = new AtomicReference<>(false);

        Fired<Object> fired = guard.fire(job, t, FiringBody.of(() -> ran.getAndSet(true)), heard);

        assertThat(fired.started()).isFalse();
        assertThat(fired.refusal()).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(ran.get()).isFalse();
        assertThat(heard.started).isEmpty();
        assertThat(heard.ended).containsExactly(RunOutcome.ALREADY_RAN);
        assertThat(guard.lastFiring("fire")).contains(new LastFiring(t, RunOutcome.ALREADY_RAN));
    }

    @Test
    void aFailingBodyIsFinishedAsFailedAndItsExceptionRethrown() {
        assertThatThrownBy(() -> guard.fire(job, t, FiringBody.of(() -> {
            throw new IllegalStateException("boom");
        }), heard)).isInstanceOf(IllegalStateException.class).hasMessage("boom");

        assertThat(guard.activeLeases()).isZero();
        assertThat(heard.ended).containsExactly(RunOutcome.FAILED);
        assertThat(heard.failures).singleElement().satisfies(f -> assertThat(f).hasMessage("boom"));
        assertThat(guard.lastFiring("fire")).contains(new LastFiring(t, RunOutcome.FAILED));
    }

    @Test
    void aCompletionStageHoldsTheLeaseUntilItCompletes() throws Throwable {
        CompletableFuture<String> work = new CompletableFuture<>();

        Fired<CompletableFuture<String>> fired = guard.fire(job, t, FiringBody.ofCompletionStage(() -> work), heard);

        assertThat(fired.value()).isSameAs(work);
        assertThat(RunContext.current()).as("unbound once the work goes on elsewhere").isEmpty();
        assertThat(guard.activeLeases()).isEqualTo(1);
        assertThat(heard.ended).isEmpty();
        assertThat(guard.lastFiring("fire")).isEmpty();

        work.completeExceptionally(new IllegalStateException("later"));

        assertThat(guard.activeLeases()).isZero();
        assertThat(heard.ended).containsExactly(RunOutcome.FAILED);
        assertThat(heard.failures).singleElement().satisfies(f -> assertThat(f).hasMessage("later"));
    }

    @Test
    void aCallbackBodyEndsItsFiringOnceFromAnyThread() throws Throwable {
        AtomicReference<FiringEnd> held = new AtomicReference<>();

        Fired<Void> fired = guard.fire(job, t, FiringBody.ofCallback(end -> {
            held.set(end);
            return null;
        }, () -> { }), heard);

        assertThat(fired.started()).isTrue();
        assertThat(guard.activeLeases()).isEqualTo(1);
        assertThat(RunContext.current()).as("a callback body stays bound until it unbinds or ends")
                .hasValueSatisfying(run -> assertThat(run).isSameAs(held.get().context()));
        Thread other = new Thread(() -> held.get().end(null));
        other.start();
        other.join();
        held.get().unbindFromCurrentThread();

        assertThat(held.get().end(new IllegalStateException("too late"))).isEqualTo(RunOutcome.FAILED);
        assertThat(guard.activeLeases()).isZero();
        assertThat(heard.ended).as("the first end counts, once").containsExactly(RunOutcome.RAN);
        assertThat(guard.lastFiring("fire")).contains(new LastFiring(t, RunOutcome.RAN));
    }

    /** What one firing's observer heard. */
    private static final class Heard implements FiringObserver {
        final List<RunContext> started = new CopyOnWriteArrayList<>();
        final List<RunOutcome> ended = new CopyOnWriteArrayList<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();

        @Override
        public void started(RunContext run) {
            started.add(run);
        }

        @Override
        public void ended(RunOutcome outcome, Throwable failure) {
            ended.add(outcome);
            if (failure != null) {
                failures.add(failure);
            }
        }
    }
}
