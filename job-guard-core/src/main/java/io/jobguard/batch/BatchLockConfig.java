package io.jobguard.batch;

import io.jobguard.NodeConfig;
import io.jobguard.internal.Counts;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link BatchLocks} instance. Immutable, every instance is valid; value semantics.
 * Build with {@link #builder()}, {@link #defaults()} or {@link #toBuilder()}; each builder setter
 * validates its value at once and names the setting in its exception.
 */
public final class BatchLockConfig {

    private final NodeConfig node;
    private final int chunkSize;
    private final int maxKeys;
    private final int maxKeyLength;
    private final int maxReportedConflicts;
    private final Boolean spread;
    private final boolean keepAlive;
    private final Duration waitPollInterval;

    private BatchLockConfig(Builder b) {
        this.node = b.node;
        this.chunkSize = b.chunkSize;
        this.maxKeys = b.maxKeys;
        this.maxKeyLength = b.maxKeyLength;
        this.maxReportedConflicts = b.maxReportedConflicts;
        this.spread = b.spread;
        this.keepAlive = b.keepAlive;
        this.waitPollInterval = b.waitPollInterval;
    }

    /**
     * The defaults: {@link NodeConfig#defaults()}, chunks of 1,000 keys, at most 100,000 keys of at
     * most 512 characters, 16 reported conflicts, spread chosen from the topology, no keep-alive,
     * WAIT poll 500 ms.
     *
     * @return the default configuration
     */
    public static BatchLockConfig defaults() {
        return builder().build();
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder seeded with this configuration.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.node = node;
        b.chunkSize = chunkSize;
        b.maxKeys = maxKeys;
        b.maxKeyLength = maxKeyLength;
        b.maxReportedConflicts = maxReportedConflicts;
        b.spread = spread;
        b.keepAlive = keepAlive;
        b.waitPollInterval = waitPollInterval;
        return b;
    }

    /**
     * What identifies this node.
     *
     * @return the node configuration
     */
    public NodeConfig node() {
        return node;
    }

    /**
     * This node's identity, recorded with every lease: {@code node().nodeId()}.
     *
     * @return the node id
     */
    public String nodeId() {
        return node.nodeId();
    }

    /**
     * Keys per server-side script call: bounds how long one call blocks Redis; a batch larger than
     * this is acquired chunk by chunk, in a fixed order, and rolled back on a conflict.
     *
     * @return the chunk size
     */
    public int chunkSize() {
        return chunkSize;
    }

    /**
     * Most distinct keys per batch.
     *
     * @return the maximum
     */
    public int maxKeys() {
        return maxKeys;
    }

    /**
     * Longest business key in characters.
     *
     * @return the maximum
     */
    public int maxKeyLength() {
        return maxKeyLength;
    }

    /**
     * Most conflicting keys reported per refused attempt.
     *
     * @return the cap
     */
    public int maxReportedConflicts() {
        return maxReportedConflicts;
    }

    /**
     * Whether the keys of a namespace are spread over 16 slot-range buckets (one call per bucket,
     * the buckets sent in parallel) instead of one hash tag per namespace (one slot, atomic per
     * chunk). {@code null} chooses from the topology on first use: spread on a Redis Cluster with
     * several masters, one hash tag on standalone, Sentinel and one-master clusters. The first node
     * to choose records its mode in Redis and every later node follows it, so a fleet never mixes modes.
     *
     * @return the spread mode, or null to choose from the topology
     */
    public Boolean spread() {
        return spread;
    }

    /**
     * Default keep-alive of leases from {@link BatchLocks#tryAcquire} and
     * {@link BatchLocks#acquire(String, java.util.Collection, Duration, Duration)}.
     *
     * @return {@code true} to renew leases every lease/3
     */
    public boolean keepAlive() {
        return keepAlive;
    }

    /**
     * WAIT re-tries at least this often even without a release notification, so an expired holder
     * (which sends none) is noticed.
     *
     * @return the poll interval
     */
    public Duration waitPollInterval() {
        return waitPollInterval;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BatchLockConfig c && node.equals(c.node) && chunkSize == c.chunkSize
                && maxKeys == c.maxKeys && maxKeyLength == c.maxKeyLength
                && maxReportedConflicts == c.maxReportedConflicts && Objects.equals(spread, c.spread)
                && keepAlive == c.keepAlive && waitPollInterval.equals(c.waitPollInterval);
    }

    @Override
    public int hashCode() {
        return Objects.hash(node, chunkSize, maxKeys, maxKeyLength, maxReportedConflicts, spread, keepAlive,
                waitPollInterval);
    }

    @Override
    public String toString() {
        return "BatchLockConfig[nodeId=" + node.nodeId() + ", chunkSize=" + chunkSize + ", maxKeys=" + maxKeys
                + ", maxKeyLength=" + maxKeyLength + ", maxReportedConflicts=" + maxReportedConflicts
                + ", spread=" + spread + ", keepAlive=" + keepAlive + ", waitPollInterval=" + waitPollInterval + "]";
    }

    /** Builds a {@link BatchLockConfig}; every setter validates its value at once. Not thread-safe. */
    public static final class Builder {
        private NodeConfig node;
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
         * Sets what identifies this node.
         *
         * @param node the node configuration (default {@link NodeConfig#defaults()})
         * @return this builder
         * @throws NullPointerException naming {@code BatchLockConfig.node} when it is null
         */
        public Builder node(NodeConfig node) {
            this.node = Objects.requireNonNull(node, "BatchLockConfig.node");
            return this;
        }

        /**
         * Sets the keys per script call.
         *
         * @param chunkSize one or more (default 1,000)
         * @return this builder
         * @throws IllegalArgumentException naming {@code BatchLockConfig.chunkSize} and the value when not positive
         */
        public Builder chunkSize(int chunkSize) {
            this.chunkSize = Counts.positive(chunkSize, "BatchLockConfig.chunkSize");
            return this;
        }

        /**
         * Sets the most distinct keys per batch.
         *
         * @param maxKeys one or more (default 100,000)
         * @return this builder
         * @throws IllegalArgumentException naming {@code BatchLockConfig.maxKeys} and the value when not positive
         */
        public Builder maxKeys(int maxKeys) {
            this.maxKeys = Counts.positive(maxKeys, "BatchLockConfig.maxKeys");
            return this;
        }

        /**
         * Sets the longest key in characters.
         *
         * @param maxKeyLength one or more (default 512)
         * @return this builder
         * @throws IllegalArgumentException naming {@code BatchLockConfig.maxKeyLength} and the value when not
         *                                  positive
         */
        public Builder maxKeyLength(int maxKeyLength) {
            this.maxKeyLength = Counts.positive(maxKeyLength, "BatchLockConfig.maxKeyLength");
            return this;
        }

        /**
         * Sets how many conflicting keys a refused attempt reports at most.
         *
         * @param maxReportedConflicts one or more (default 16)
         * @return this builder
         * @throws IllegalArgumentException naming {@code BatchLockConfig.maxReportedConflicts} and the value when
         *                                  not positive
         */
        public Builder maxReportedConflicts(int maxReportedConflicts) {
            this.maxReportedConflicts = Counts.positive(maxReportedConflicts, "BatchLockConfig.maxReportedConflicts");
            return this;
        }

        /**
         * Sets spread mode for Redis Cluster (see {@link BatchLockConfig#spread()}).
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
         * @param keepAlive whether to renew leases every lease/3 (default {@code false})
         * @return this builder
         */
        public Builder keepAlive(boolean keepAlive) {
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * Sets the WAIT fallback poll interval.
         *
         * @param waitPollInterval positive, at most 3,650 days (default 500 ms)
         * @return this builder
         * @throws NullPointerException     naming {@code BatchLockConfig.waitPollInterval} when it is null
         * @throws IllegalArgumentException naming {@code BatchLockConfig.waitPollInterval} and the value when it
         *                                  is out of range
         */
        public Builder waitPollInterval(Duration waitPollInterval) {
            Objects.requireNonNull(waitPollInterval, "BatchLockConfig.waitPollInterval");
            this.waitPollInterval = TimeBounds.positive(waitPollInterval, "BatchLockConfig.waitPollInterval");
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return the configuration
         * @throws IllegalArgumentException if no node was set and this host's default node id breaks the name rules
         */
        public BatchLockConfig build() {
            if (node == null) {
                node = NodeConfig.defaults();
            }
            return new BatchLockConfig(this);
        }
    }
}
