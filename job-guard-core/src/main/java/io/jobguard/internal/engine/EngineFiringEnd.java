package io.jobguard.internal.engine;

import io.jobguard.FiringEnd;
import io.jobguard.FiringObserver;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ends one firing started by {@link JobGuard#fire}: the only way its permit is finished. The first
 * {@link #end(Throwable)} finishes the permit (stops the keep-alive, releases the lease if the run
 * still owns it, reports the outcome to the engine's listeners) and then records the outcome once
 * (the engine's {@link JobGuard#lastFiring(String) last firing} of the job and the caller's
 * {@link FiringObserver}); later calls, from any thread, change nothing. Thread-safe.
 */
final class EngineFiringEnd implements FiringEnd {

    private final JobGuardEngine guard;
    private final JobOptions job;
    private final Instant nominalFireTime;
    private final EnginePermit permit;
    private final FiringObserver observer;
    private final AtomicBoolean ended = new AtomicBoolean();

    EngineFiringEnd(JobGuardEngine guard, JobOptions job, Instant nominalFireTime, EnginePermit permit, FiringObserver observer) {
        this.guard = guard;
        this.job = job;
        this.nominalFireTime = nominalFireTime;
        this.permit = permit;
        this.observer = observer;
    }

    /**
     * Ends the firing, once.
     *
     * @param failure what the work threw, or null if it completed normally
     * @return {@link RunOutcome#RAN} (for a catch-up {@link RunOutcome#CAUGHT_UP}, for a retry
     *         {@link RunOutcome#RETRIED}) or {@link RunOutcome#FAILED}
     */
    public RunOutcome end(Throwable failure) {
        if (!ended.compareAndSet(false, true)) {
            return permit.finish(failure);
        }
        RunOutcome outcome = permit.finish(failure);
        guard.ended(job, nominalFireTime, outcome, failure, observer);
        return outcome;
    }

    /**
     * Returns what the run can know about its lease.
     *
     * @return the run's context
     */
    public RunContext context() {
        return permit.context();
    }

    /**
     * Unbinds the run's context from the current thread if it is bound there, for work that goes on
     * elsewhere after the admitted thread moves on; the firing stays live until it is ended.
     */
    public void unbindFromCurrentThread() {
        permit.unbindFromCurrentThread();
    }
}
