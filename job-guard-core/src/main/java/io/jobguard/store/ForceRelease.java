package io.jobguard.store;

/**
 * Optional store capability: deleting a job's run lease whoever holds it, on any node (an operator's
 * escape hatch for a stuck lease). Asked through {@link LeaseStore#capability(Class)}.
 */
public interface ForceRelease {

    /**
     * Deletes a job's run lease whoever holds it.
     *
     * @param job the job
     * @return {@code true} if a lease was deleted
     */
    boolean forceReleaseRun(JobId job);
}
