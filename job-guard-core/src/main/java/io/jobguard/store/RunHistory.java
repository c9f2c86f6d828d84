package io.jobguard.store;

import java.util.List;
import java.util.Optional;

/**
 * Optional store capability: the cluster-wide live run lease of a job and its recent fire times, for
 * operators (actuator, {@code JobGuard#currentLease}, {@code JobGuard#recentFires}). A store offers it
 * only when it sees every node's leases; asked through {@link LeaseStore#capability(Class)}.
 */
public interface RunHistory {

    /**
     * The live run lease of a job, cluster-wide.
     *
     * @param job the job
     * @return the lease, or empty if none is held
     */
    Optional<LeaseRecord> currentRunLease(JobId job);

    /**
     * The most recent fire times taken for a job, newest first.
     *
     * @param job the job
     * @param max the most entries to return
     * @return the entries
     */
    List<LeaseRecord> recentFires(JobId job, int max);
}
