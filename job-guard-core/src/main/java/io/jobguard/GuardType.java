package io.jobguard;

/**
 * What a guarded firing does when another run of the same job holds the cluster-wide run lease.
 *
 * <p>Both types skip a firing whose nominal fire time has already been taken by another node:
 * a fire time runs at most once in the cluster.
 */
public enum GuardType {
    /** Skip the firing at once when another run holds the lease (outcome {@link RunOutcome#BUSY}). */
    RETURN,
    /**
     * Wait, bounded by {@code waitFor}, until the current run releases the lease, then run the
     * firing late unless its fire time was taken meanwhile; on time-out the outcome is
     * {@link RunOutcome#WAIT_TIMEOUT}.
     */
    WAIT
}
