package io.jobguard;

import io.jobguard.internal.CurrentRun;
import io.jobguard.internal.KeepAlive;
import io.jobguard.store.RunLeaseRequest;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The right to run one firing of a guarded job: while it is held (and not lost) no other run of
 * the job starts anywhere in the cluster. {@link #finish(Throwable)} releases it, owner-checked;
 * a permit whose node dies is released by the lease's expiry in the store.
 *
 * <p>The permit is bound as the {@link RunContext#current() current run} of the thread that was
 * admitted until it is finished.
 */
public final class JobPermit implements AutoCloseable {

    private final JobGuard guard;
    private final JobOptions options;
    private final RunLeaseRequest request;
    private final State state;
    private final long admittedNanos;
    private final long acquireNanos;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final Thread runner;
    private volatile KeepAlive.Handle keepAlive;

    JobPermit(JobGuard guard, JobOptions options, RunLeaseRequest request, long fencingToken, boolean guarded,
              long acquireNanos) {
        this.guard = guard;
        this.options = options;
        this.request = request;
        this.state = new State(options.name(), request.nominalFireTime(), fencingToken, guarded);
        this.acquireNanos = acquireNanos;
        this.admittedNanos = System.nanoTime();
        this.runner = Thread.currentThread();
    }

    /**
     * Returns what the run can know about its lease.
     *
     * @return the run's context
     */
    public RunContext context() {
        return state;
    }

    /**
     * Ends the run: stops the keep-alive, releases the lease if this run still owns it (a lease
     * lost meanwhile is reported, never deleted), reports the outcome. Calling it again has no
     * effect and returns the same outcome class.
     *
     * @param failure what the body threw, or null if it completed normally
     * @return {@link RunOutcome#RAN} (for a catch-up {@link RunOutcome#CAUGHT_UP}, for a retry
     *         {@link RunOutcome#RETRIED}) or {@link RunOutcome#FAILED}
     */
    public RunOutcome finish(Throwable failure) {
        RunOutcome outcome = failure == null ? state.completed() : RunOutcome.FAILED;
        if (!finished.compareAndSet(false, true)) {
            return outcome;
        }
        KeepAlive.Handle handle = keepAlive;
        if (handle != null) {
            handle.cancel();
        }
        if (Thread.currentThread() == runner && CurrentRun.get() == state) {
            CurrentRun.set(null);
        }
        guard.finished(this, outcome, failure, System.nanoTime() - admittedNanos);
        return outcome;
    }

    /** Finishes the run as {@link RunOutcome#RAN} unless it was finished already. */
    @Override
    public void close() {
        finish(null);
    }

    JobOptions options() {
        return options;
    }

    RunLeaseRequest request() {
        return request;
    }

    long acquireNanos() {
        return acquireNanos;
    }

    Thread runner() {
        return runner;
    }

    boolean guarded() {
        return state.guarded;
    }

    void keepAlive(KeepAlive.Handle handle) {
        this.keepAlive = handle;
    }

    /** @return {@code true} if this call flagged the lease as lost (first time) */
    boolean markLost() {
        return state.lost.compareAndSet(false, true);
    }

    void recovery(io.jobguard.store.AcquireMode.Kind kind, int attempt) {
        state.kind = kind;
        state.attempt = attempt;
    }

    void bind() {
        CurrentRun.set(state);
    }

    private static final class State implements RunContext {
        private final String job;
        private final Instant fireTime;
        private final long fencingToken;
        private final boolean guarded;
        private final AtomicBoolean lost = new AtomicBoolean();
        private volatile io.jobguard.store.AcquireMode.Kind kind = io.jobguard.store.AcquireMode.Kind.REGULAR;
        private volatile int attempt = 1;

        State(String job, Instant fireTime, long fencingToken, boolean guarded) {
            this.job = job;
            this.fireTime = fireTime;
            this.fencingToken = fencingToken;
            this.guarded = guarded;
        }

        @Override
        public String job() {
            return job;
        }

        @Override
        public Instant nominalFireTime() {
            return fireTime;
        }

        @Override
        public long fencingToken() {
            return fencingToken;
        }

        @Override
        public boolean isLeaseLost() {
            return lost.get();
        }

        @Override
        public boolean isGuarded() {
            return guarded;
        }

        @Override
        public boolean isRetry() {
            return kind == io.jobguard.store.AcquireMode.Kind.RETRY;
        }

        @Override
        public boolean isCatchUp() {
            return kind == io.jobguard.store.AcquireMode.Kind.CATCH_UP;
        }

        @Override
        public int attempt() {
            return attempt;
        }

        /** The outcome of a body that completed: RAN, or CAUGHT_UP / RETRIED for the recovery runs (issue 15). */
        RunOutcome completed() {
            return switch (kind) {
                case CATCH_UP -> RunOutcome.CAUGHT_UP;
                case RETRY -> RunOutcome.RETRIED;
                default -> RunOutcome.RAN;
            };
        }

        @Override
        public String toString() {
            return "RunContext[job=" + job + ", T=" + fireTime + ", fence=" + fencingToken + ", lost=" + lost.get() + "]";
        }
    }
}
