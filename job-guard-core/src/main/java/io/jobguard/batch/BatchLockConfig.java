package io.jobguard.batch;

import io.jobguard.JobGuardConfig;
import io.jobguard.internal.Counts;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;
import java.util.Objects;

/**
 * Immutable settings of a {@link BatchLocks} instance, built with {@link #custom()} and validated
 * on {@link Builder#build()} (an invalid value fails naming the setting).
 *
 * @param nodeId               this node's identity, recorded with every lease (default {@code hostname:pid})
 * @param chunkSize            keys per server-side script call (default 1,000): bounds how long one call
 *                             blocks Redis; a batch larger than this is acquired chunk by chunk, in a fixed
 *                             order, and rolled back on a conflict
 * @param maxKeys              most distinct keys per batch (default 100,000)
 * @param maxKeyLength         longest business key in characters (default 512)
 * @param maxReportedConflicts most conflicting keys reported per refused attempt (default 16)
 * @param spread               spread the keys of a namespace over 16 slot-range buckets (one call per bucket,
 *                             the buckets sent in parallel) instead of one hash tag per namespace (one slot,
 *                             atomic per chunk); {@code null} (the default) chooses from the topology on first
 *                             use: spread on a Redis Cluster with several masters, one hash tag on standalone,
 *                             Sentinel and one-master clusters. The first node to choose records its mode in
 *                             Redis and every later node follows it, so a fleet never mixes modes
 * @param keepAlive            default for keep-alive of leases from {@link BatchLocks#tryAcquire} and
 *                             {@link BatchLocks#acquire(String, java.util.Collection, Duration, Duration)}
 *                             (default {@code false})
 * @param waitPollInterval     WAIT re-tries at least this often even without a release notification, so
 *                             an expired holder (which sends none) is noticed (default 500 ms)
 */
public record BatchLockConfig(String nodeId, int chunkSize, int maxKeys, int maxKeyLength,
                              int maxReportedConflicts, Boolean spread, boolean keepAlive,
                              Duration waitPollInterval) {

    /**
     * Validates the settings.
     *
     * @param nodeId               node identity
     * @param chunkSize            keys per script call
     * @param maxKeys              most keys per batch
     * @param maxKeyLength         longest key
     * @param maxReportedConflicts most conflicts reported
     * @param spread               spread mode, or null to choose from the topology
     * @param keepAlive            default keep-alive
     * @param waitPollInterval     WAIT fallback poll interval
     * @throws IllegalArgumentException naming the invalid setting
     */
    public BatchLockConfig {
        Names.name(nodeId, "BatchLockConfig.nodeId");
        Counts.positive(chunkSize, "BatchLockConfig.chunkSize");
        Counts.positive(maxKeys, "BatchLockConfig.maxKeys");
        Counts.positive(maxKeyLength, "BatchLockConfig.maxKeyLength");
        Counts.positive(maxReportedConflicts, "BatchLockConfig.maxReportedConflicts");
        Objects.requireNonNull(waitPollInterval, "BatchLockConfig.waitPollInterval");
        TimeBounds.positive(waitPollInterval, "BatchLockConfig.waitPollInterval");
    }

    /**
     * Returns the defaults.
     *
     * @return the default configuration
     */
    public static BatchLockConfig ofDefaults() {
        return custom().build();
    }

    /**
     * Starts a builder with the defaults.
     *
     * @return a builder
     */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * Starts a builder with another configuration's values.
     *
     * @param base the configuration to copy
     * @return a builder
     */
    public static Builder from(BatchLockConfig base) {
        return custom().nodeId(base.nodeId).chunkSize(base.chunkSize).maxKeys(base.maxKeys)
                .maxKeyLength(base.maxKeyLength).maxReportedConflicts(base.maxReportedConflicts).spread(base.spread)
                .keepAlive(base.keepAlive).waitPollInterval(base.waitPollInterval);
    }

    /** Builds a {@link BatchLockConfig}; not thread-safe. */
    public static final class Builder {
        private String nodeId = JobGuardConfig.defaultNodeId();
        private int chunkSize = 1_000;
        private int maxKeys = 100_000;
        private int maxKeyLength = 512;
        private int maxReportedConflicts = 16;
        private Boolean spread;
        private boolean keepAlive;
        private Duration waitPollInterval = Duration.ofMillis(500);

        private Builder() {
        }

        /**
         * Sets the node identity.
         *
         * @param nodeId this node's identity
         * @return this builder
         */
        public Builder nodeId(String nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        /**
         * Sets the keys per script call.
         *
         * @param chunkSize keys per call
         * @return this builder
         */
        public Builder chunkSize(int chunkSize) {
            this.chunkSize = chunkSize;
            return this;
        }

        /**
         * Sets the most distinct keys per batch.
         *
         * @param maxKeys the maximum
         * @return this builder
         */
        public Builder maxKeys(int maxKeys) {
            this.maxKeys = maxKeys;
            return this;
        }

        /**
         * Sets the longest key in characters.
         *
         * @param maxKeyLength the maximum
         * @return this builder
         */
        public Builder maxKeyLength(int maxKeyLength) {
            this.maxKeyLength = maxKeyLength;
            return this;
        }

        /**
         * Sets how many conflicting keys a refused attempt reports at most.
         *
         * @param maxReportedConflicts the cap
         * @return this builder
         */
        public Builder maxReportedConflicts(int maxReportedConflicts) {
            this.maxReportedConflicts = maxReportedConflicts;
            return this;
        }

        /**
         * Sets spread mode for Redis Cluster.
         *
         * @param spread whether to spread keys over slots, or null (the default) to choose from the topology
         * @return this builder
         */
        public Builder spread(Boolean spread) {
            this.spread = spread;
            return this;
        }

        /**
         * Sets the default keep-alive of programmatic leases.
         *
         * @param keepAlive whether to renew leases every lease/3
         * @return this builder
         */
        public Builder keepAlive(boolean keepAlive) {
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * Sets the WAIT fallback poll interval.
         *
         * @param waitPollInterval the interval
         * @return this builder
         */
        public Builder waitPollInterval(Duration waitPollInterval) {
            this.waitPollInterval = waitPollInterval;
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return the configuration
         * @throws IllegalArgumentException naming the invalid setting
         */
        public BatchLockConfig build() {
            return new BatchLockConfig(nodeId, chunkSize, maxKeys, maxKeyLength, maxReportedConflicts, spread,
                    keepAlive, waitPollInterval);
        }
    }
}
