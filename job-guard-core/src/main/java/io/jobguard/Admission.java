package io.jobguard;

/**
 * What {@link JobGuard#admit(JobOptions, java.time.Instant)} decided for one fire time: either a
 * {@link FiringPermit} that the caller must finish, or why the firing is skipped. Immutable.
 */
public interface Admission {

    /**
     * Tells whether the body may run.
     *
     * @return {@code true} if this node holds the lease for the fire time (or runs unguarded under
     *         {@link StoreFailurePolicy#RUN})
     */
    boolean granted();

    /**
     * Returns the permit; the caller must {@link FiringPermit#finish(Throwable) finish} it.
     *
     * @return the permit
     * @throws IllegalStateException if the firing was refused
     */
    FiringPermit permit();

    /**
     * Returns why the firing is skipped.
     *
     * @return ALREADY_RAN, BUSY, WAIT_TIMEOUT, STORE_ERROR, PAUSED or HISTORY_LOST
     * @throws IllegalStateException if the firing was granted
     */
    RunOutcome refusal();
}
