package io.jobguard.store;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A lease store that can pause jobs cluster-wide. While a job's pause flag is set, the store's
 * {@link LeaseStore#acquireRun} answers {@link AcquireResult.Status#PAUSED} in the same call that
 * would take the lease (no extra round trip per firing) and writes nothing for the fire time.
 * Implemented by the Redis store.
 */
public interface JobPauses {

    /**
     * Sets the job's pause flag unless it is set.
     *
     * @param job    the job
     * @param nodeId the node that pauses it
     * @param by     who asked ("" when unknown)
     * @return true if the flag was set by this call
     * @throws LeaseStoreException if the store cannot be reached
     */
    boolean pause(JobId job, String nodeId, String by);

    /**
     * Clears the job's pause flag.
     *
     * @param job the job
     * @return true if the flag was set
     * @throws LeaseStoreException if the store cannot be reached
     */
    boolean resume(JobId job);

    /**
     * Reads the job's pause flag.
     *
     * @param job the job
     * @return the flag, or empty when the job is not paused
     * @throws LeaseStoreException if the store cannot be reached
     */
    Optional<Pause> paused(JobId job);

    /**
     * A set pause flag.
     *
     * @param pausedAt when it was set, by the store's clock (null when the value is not job-guard's)
     * @param node     the node that set it
     * @param by       who asked ("" when unknown)
     */
    record Pause(Instant pausedAt, String node, String by) {
        /**
         * Checks the parts.
         *
         * @param pausedAt when it was set, or null
         * @param node     the node that set it
         * @param by       who asked
         */
        public Pause {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(by, "by");
        }
    }
}
