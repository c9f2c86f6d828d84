package io.jobguard.internal.engine;

import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.RunContext;
import io.jobguard.RetryPolicy;
import io.jobguard.RunOutcome;
import io.jobguard.internal.KeepAlive;
import io.jobguard.internal.LeaseDeadline;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.RunLeaseRequest;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The right to run one firing of a guarded job: while it is held (and not lost) no other run of
 * the job starts anywhere in the cluster. {@link #finish(Throwable)} releases it, owner-checked;
 * a permit whose node dies is released by the lease's expiry in the store.
 *
 * <p>The permit owns its lifecycle: it starts its lease's keep-alive, learns of lease loss, and on
 * {@link #finish(Throwable)} stops the keep-alive, releases the lease and reports the outcome, through
 * what the engine gave it at creation; the engine receives no callbacks.
 *
 * <p>The permit is bound as the {@link RunContext#current() current run} of the thread that was
 * admitted until it is finished.
 */
public final class EnginePermit implements FiringPermit {

    /**
     * The run context of the guarded run on each thread: the only static mutable state of core (checked by
     * {@code CoreArchitectureTest}); set when a permit is granted, removed when it finishes or is unbound.
     */
    private static final ThreadLocal<RunContext> CURRENT = new ThreadLocal<>();

    private final RunLifecycle lifecycle;
    private final JobOptions options;
    private final RunLeaseRequest request;
    private final State state;
    private final long admittedNanos;
    private final long acquireNanos;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final Thread runner;
    private final Object interruptLock = new Object();
    private boolean interrupted;
    private volatile boolean givenUp;
    private volatile KeepAlive.Handle keepAlive;

    private EnginePermit(RunLifecycle lifecycle, JobOptions options, RunLeaseRequest request, long fencingToken,
                      boolean guarded, long acquireNanos, LeaseDeadline deadline) {
        this.lifecycle = lifecycle;
        this.options = options;
        this.request = request;
        this.state = new State(options.name(), request.nominalFireTime(), fencingToken, guarded, deadline);
        this.acquireNanos = acquireNanos;
        this.admittedNanos = System.nanoTime();
        this.runner = Thread.currentThread();
    }

    /**
     * Creates the permit of a granted firing on the admitted thread: binds its context to that thread and
     * starts its lifecycle (counted as live, keep-alive started when the job asks for it).
     */
    static EnginePermit start(RunLifecycle lifecycle, JobOptions options, RunLeaseRequest request, long fencingToken,
                           boolean guarded, long acquireNanos, LeaseDeadline deadline, AcquireMode mode) {
        EnginePermit permit = new EnginePermit(lifecycle, options, request, fencingToken, guarded, acquireNanos, deadline);
        permit.state.kind = mode.kind();
        permit.state.attempt = mode.kind() == AcquireMode.Kind.RETRY || mode.kind() == AcquireMode.Kind.RETRY_FAILED
                ? mode.attempt() + 1 : 1;
        CURRENT.set(permit.state);
        lifecycle.started(permit);
        return permit;
    }

    /**
     * The context bound to the current thread, or null (read by {@link RunContext#current()}).
     *
     * @return the context, or null
     */
    public static RunContext current() {
        return CURRENT.get();
    }

    /**
     * Unbinds this permit's context from the current thread if it is bound there, for adapters whose
     * guarded body goes on elsewhere (an asynchronous method returns before its run ends); the permit
     * stays live until it is finished.
     */
    public void unbindFromCurrentThread() {
        if (CURRENT.get() == state) {
            CURRENT.remove();
        }
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
     * @return {@link RunOutcome#RAN} (for a catch-up {@link RunOutcome#CAUGHT_UP}, for a retry of a dead run
     *         {@link RunOutcome#RETRIED}), or for a failure {@link RunOutcome#RETRY_PENDING} (another attempt follows),
     *         {@link RunOutcome#RETRIES_EXHAUSTED} (the last attempt failed) or {@link RunOutcome#FAILED}
     */
    public RunOutcome finish(Throwable failure) {
        RunOutcome outcome = failure == null ? state.completed() : failed(failure);
        boolean clearInterrupt;
        synchronized (interruptLock) {
            if (!finished.compareAndSet(false, true)) {
                return outcome;
            }
            clearInterrupt = interrupted;
        }
        if (clearInterrupt && Thread.currentThread() == runner) {
            // The interrupt was meant for this run only, not for what the thread does next.
            Thread.interrupted();
        }
        KeepAlive.Handle handle = keepAlive;
        if (handle != null) {
            handle.cancel();
        }
        if (Thread.currentThread() == runner) {
            unbindFromCurrentThread();
        }
        lifecycle.ended(this, outcome, failure, System.nanoTime() - admittedNanos);
        return outcome;
    }

    /**
     * The outcome of a body that threw, under the job's retry policy: another attempt only where the store can leave it
     * pending, and never for a run whose lease was lost (it is not known to be alone; the delivery decides).
     */
    private RunOutcome failed(Throwable failure) {
        RetryPolicy retry = options.retry();
        if (!guarded() || state.isLeaseLost() || !lifecycle.retriesFailedRuns() || !retry.retriesOn(failure)) {
            return RunOutcome.FAILED;
        }
        return state.attempt < retry.attempts() ? RunOutcome.RETRY_PENDING : RunOutcome.RETRIES_EXHAUSTED;
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

    /** Interrupts the run's thread if the run has not finished; never a thread that has moved on. */
    boolean interruptRunner() {
        synchronized (interruptLock) {
            if (finished.get()) {
                return false;
            }
            interrupted = true;
            runner.interrupt();
            return true;
        }
    }

    LeaseDeadline deadline() {
        return state.deadline;
    }

    boolean guarded() {
        return state.guarded;
    }

    boolean givenUp() {
        return givenUp;
    }

    void keepAlive(KeepAlive.Handle handle) {
        this.keepAlive = handle;
    }

    /** Stops renewing because the lease is being given up at shutdown; finishing will not release it again. */
    void stopKeepAlive() {
        givenUp = true;
        KeepAlive.Handle handle = keepAlive;
        if (handle != null) {
            handle.cancel();
        }
    }

    /** @return {@code true} if this call flagged the lease as lost (first time) */
    boolean markLost() {
        return state.deadline.markLost();
    }

    private static final class State implements RunContext {
        private final String job;
        private final Instant nominalFireTime;
        private final long fencingToken;
        private final boolean guarded;
        private final LeaseDeadline deadline;
        private volatile AcquireMode.Kind kind = AcquireMode.Kind.REGULAR;
        private volatile int attempt = 1;

        State(String job, Instant nominalFireTime, long fencingToken, boolean guarded, LeaseDeadline deadline) {
            this.job = job;
            this.nominalFireTime = nominalFireTime;
            this.fencingToken = fencingToken;
            this.guarded = guarded;
            this.deadline = deadline;
        }

        @Override
        public String job() {
            return job;
        }

        @Override
        public Instant nominalFireTime() {
            return nominalFireTime;
        }

        @Override
        public long fencingToken() {
            return fencingToken;
        }

        @Override
        public boolean isLeaseLost() {
            return guarded && deadline.isLost();
        }

        @Override
        public boolean isGuarded() {
            return guarded;
        }

        @Override
        public boolean isRetry() {
            return kind == AcquireMode.Kind.RETRY || kind == AcquireMode.Kind.RETRY_FAILED;
        }

        @Override
        public boolean isCatchUp() {
            return kind == AcquireMode.Kind.CATCH_UP;
        }

        @Override
        public int attempt() {
            return attempt;
        }

        /** The outcome of a body that completed: RAN, or CAUGHT_UP / RETRIED for the recovery runs of missed fire times. */
        RunOutcome completed() {
            return switch (kind) {
                case CATCH_UP -> RunOutcome.CAUGHT_UP;
                case RETRY -> RunOutcome.RETRIED;
                default -> RunOutcome.RAN;
            };
        }

        @Override
        public String toString() {
            return "RunContext[job=" + job + ", T=" + nominalFireTime + ", fence=" + fencingToken + ", lost=" + isLeaseLost() + "]";
        }
    }
}
