package io.jobguard;

/**
 * The right to run one firing of a guarded job, granted by {@link JobGuard#admit(JobOptions, java.time.Instant)}:
 * while it is held (and not lost) no other run of the job starts anywhere in the cluster.
 * {@link #finish(Throwable)} releases it, owner-checked; a permit whose node dies is released by the
 * lease's expiry in the store. The permit is bound as the {@link RunContext#current() current run} of the
 * thread that was admitted until it is finished or {@link #unbindFromCurrentThread() unbound}. Thread-safe.
 */
public interface FiringPermit extends AutoCloseable {

    /**
     * Unbinds this permit's context from the current thread if it is bound there, for adapters whose
     * guarded body goes on elsewhere (an asynchronous method returns before its run ends); the permit
     * stays live until it is finished.
     */
    void unbindFromCurrentThread();

    /**
     * Returns what the run can know about its lease.
     *
     * @return the run's context
     */
    RunContext context();

    /**
     * Ends the run: stops the keep-alive, releases the lease if this run still owns it (a lease
     * lost meanwhile is reported, never deleted), reports the outcome. Calling it again has no
     * effect and returns the same outcome class.
     *
     * @param failure what the body threw, or null if it completed normally
     * @return {@link RunOutcome#RAN} (for a catch-up {@link RunOutcome#CAUGHT_UP}, for a retry
     *         {@link RunOutcome#RETRIED}) or {@link RunOutcome#FAILED}
     */
    RunOutcome finish(Throwable failure);

    /** Finishes the run as {@link RunOutcome#RAN} unless it was finished already. */
    @Override
    void close();
}
