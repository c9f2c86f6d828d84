package io.jobguard.store;

/**
 * Optional store capability: notifications of a job's run-lease releases, so that a waiting firing wakes
 * at once. Without it the engine polls every {@code JobGuardConfig#waitPollInterval()}. Asked through
 * {@link LeaseStore#capability(Class)}.
 */
public interface ReleaseWatching {

    /**
     * Registers for release notifications of a job's run lease.
     *
     * @param job the job
     * @return a watch to await releases with; close it when done
     */
    ReleaseWatch watchRunReleases(JobId job);
}
