package io.jobguard;

/**
 * Ends one firing started by {@link JobGuard#fire}: the only way its permit is finished. The first
 * {@link #end(Throwable)} finishes the permit (stops the keep-alive, releases the lease if the run
 * still owns it, reports the outcome to the engine's listeners) and then records the outcome once
 * (the engine's {@link JobGuard#lastFiring(String) last firing} of the job and the caller's
 * {@link FiringObserver}); later calls, from any thread, change nothing. Thread-safe.
 */
public interface FiringEnd {

    /**
     * Ends the firing, once.
     *
     * @param failure what the work threw, or null if it completed normally
     * @return {@link RunOutcome#RAN} (for a catch-up {@link RunOutcome#CAUGHT_UP}, for a retry
     *         {@link RunOutcome#RETRIED}) or {@link RunOutcome#FAILED}
     */
    RunOutcome end(Throwable failure);

    /**
     * Returns what the run can know about its lease.
     *
     * @return the run's context
     */
    RunContext context();

    /**
     * Unbinds the run's context from the current thread if it is bound there, for work that goes on
     * elsewhere after the admitted thread moves on; the firing stays live until it is ended.
     */
    void unbindFromCurrentThread();
}
