package io.jobguard;

import io.jobguard.internal.Counts;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Node-wide settings of a {@link JobGuard}. Immutable, every instance is valid; value semantics.
 * Build with {@link #builder()}, {@link #defaults()} or {@link #toBuilder()}; each builder setter
 * validates its value at once and names the setting in its exception.
 */
public final class JobGuardConfig {

    private final String namespace;
    private final NodeConfig node;
    private final Duration defaultLease;
    private final Duration skewTolerance;
    private final StoreFailurePolicy storeFailurePolicy;
    private final boolean interruptOnLeaseLost;
    private final Duration waitPollInterval;
    private final int historySize;
    private final Duration historyRetention;
    private final Clock clock;
    private final boolean spread;

    /** The default most entries of a job's history: see docs/benchmarks.md, "History memory". */
    public static final int DEFAULT_HISTORY_SIZE = 2_000;
    /** The default history retention, by fire time. */
    public static final Duration DEFAULT_HISTORY_RETENTION = Duration.ofDays(14);

    private JobGuardConfig(Builder b) {
        this.namespace = b.namespace;
        this.node = b.node;
        this.defaultLease = b.defaultLease;
        this.skewTolerance = b.skewTolerance;
        this.storeFailurePolicy = b.storeFailurePolicy;
        this.interruptOnLeaseLost = b.interruptOnLeaseLost;
        this.waitPollInterval = b.waitPollInterval;
        this.historySize = b.historySize;
        this.historyRetention = b.historyRetention;
        this.clock = b.clock;
        this.spread = b.spread;
    }

    /**
     * The defaults: namespace {@code default}, {@link NodeConfig#defaults()}, lease 5 minutes, skew
     * tolerance 5 minutes, SKIP on store failure, no interrupt on lease loss, WAIT poll 1 second,
     * history of at most 2,000 entries per job kept 14 days, the UTC system clock, the fleet spread on.
     *
     * @return the default configuration
     */
    public static JobGuardConfig defaults() {
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
        b.namespace = namespace;
        b.node = node;
        b.spread = spread;
        b.defaultLease = defaultLease;
        b.skewTolerance = skewTolerance;
        b.storeFailurePolicy = storeFailurePolicy;
        b.interruptOnLeaseLost = interruptOnLeaseLost;
        b.waitPollInterval = waitPollInterval;
        b.historySize = historySize;
        b.historyRetention = historyRetention;
        b.clock = clock;
        return b;
    }

    /**
     * Isolates applications sharing one store; one word without {@code :}, {@code ~}, {@code |} or
     * braces, so that no two (namespace, job) pairs share a key.
     *
     * @return the namespace
     */
    public String namespace() {
        return namespace;
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
     * Lease of jobs that do not set one.
     *
     * @return the default lease
     */
    public Duration defaultLease() {
        return defaultLease;
    }

    /**
     * The largest clock difference between nodes under which each fire time still runs once.
     *
     * @return the skew tolerance
     */
    public Duration skewTolerance() {
        return skewTolerance;
    }

    /**
     * What a firing does when the store is unreachable.
     *
     * @return the policy
     */
    public StoreFailurePolicy storeFailurePolicy() {
        return storeFailurePolicy;
    }

    /**
     * Whether a run whose lease was lost is interrupted.
     *
     * @return {@code true} to interrupt
     */
    public boolean interruptOnLeaseLost() {
        return interruptOnLeaseLost;
    }

    /**
     * The longest a WAIT firing sleeps between checks when no release notification arrives.
     *
     * @return the poll interval
     */
    public Duration waitPollInterval() {
        return waitPollInterval;
    }

    /**
     * The most history entries per job the store keeps by default (a job's {@link JobOptions#historySize()} wins).
     *
     * @return the history size, zero for none
     */
    public int historySize() {
        return historySize;
    }

    /**
     * How long history entries are kept by default, by fire time (a job's {@link JobOptions#historyRetention()}
     * wins); zero keeps them by count only.
     *
     * @return the retention
     */
    public Duration historyRetention() {
        return historyRetention;
    }

    /**
     * This node's clock; read only to report skew, never to decide expiry.
     *
     * @return the clock
     */
    public Clock clock() {
        return clock;
    }

    /**
     * Whether each declared job's regular fire times are asked for by one node of the live fleet
     * ({@link JobGuard#declareScheduledJobs}), the others taking a fire time over only when that node did not cover it
     * in time. The fire-time marker decides either way; off, every node asks for every fire time.
     *
     * @return {@code true} to spread (the default)
     */
    public boolean spread() {
        return spread;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobGuardConfig c && namespace.equals(c.namespace) && node.equals(c.node)
                && defaultLease.equals(c.defaultLease) && skewTolerance.equals(c.skewTolerance)
                && storeFailurePolicy == c.storeFailurePolicy && interruptOnLeaseLost == c.interruptOnLeaseLost
                && waitPollInterval.equals(c.waitPollInterval) && historySize == c.historySize
                && historyRetention.equals(c.historyRetention) && clock.equals(c.clock) && spread == c.spread;
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, node, defaultLease, skewTolerance, storeFailurePolicy, interruptOnLeaseLost,
                waitPollInterval, historySize, historyRetention, clock, spread);
    }

    @Override
    public String toString() {
        return "JobGuardConfig[namespace=" + namespace + ", nodeId=" + node.nodeId() + ", defaultLease="
                + defaultLease + ", skewTolerance=" + skewTolerance + ", storeFailurePolicy=" + storeFailurePolicy
                + ", interruptOnLeaseLost=" + interruptOnLeaseLost + ", waitPollInterval=" + waitPollInterval
                 + ", historySize=" + historySize + ", historyRetention=" + historyRetention + ", clock=" + clock + ", spread=" + spread + "]";
    }

    /** Builds a {@link JobGuardConfig}; every setter validates its value at once. Not thread-safe. */
    public static final class Builder {
        private String namespace = "default";
        private NodeConfig node;
        private Duration defaultLease = Duration.ofMinutes(5);
        private boolean spread = true;
        private Duration skewTolerance = Duration.ofMinutes(5);
        private StoreFailurePolicy storeFailurePolicy = StoreFailurePolicy.SKIP;
        private boolean interruptOnLeaseLost;
        private Duration waitPollInterval = Duration.ofSeconds(1);
        private int historySize = DEFAULT_HISTORY_SIZE;
        private Duration historyRetention = DEFAULT_HISTORY_RETENTION;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Sets the namespace, which isolates applications sharing one store.
         *
         * @param namespace one word of 1 to 200 characters without {@code :}, {@code ~}, {@code |},
         *                  braces or control characters (default {@code default})
         * @return this builder
         * @throws IllegalArgumentException naming {@code namespace} and the value when it breaks these rules
         */
        public Builder namespace(String namespace) {
            this.namespace = Names.namespace(namespace, "namespace");
            return this;
        }

        /**
         * Sets what identifies this node.
         *
         * @param node the node configuration (default {@link NodeConfig#defaults()})
         * @return this builder
         * @throws NullPointerException naming {@code node} when it is null
         */
        public Builder node(NodeConfig node) {
            this.node = Objects.requireNonNull(node, "node");
            return this;
        }

        /**
         * Sets the lease of jobs that do not set one.
         *
         * @param defaultLease 1 ms to 3,650 days (default 5 minutes)
         * @return this builder
         * @throws IllegalArgumentException naming {@code defaultLease} and the value when it is out of range or null
         */
        public Builder defaultLease(Duration defaultLease) {
            this.defaultLease = TimeBounds.lease(defaultLease, "defaultLease");
            return this;
        }

        /**
         * Sets the largest clock difference between nodes under which each fire time still runs once.
         *
         * @param skewTolerance positive, at most 3,650 days (default 5 minutes)
         * @return this builder
         * @throws IllegalArgumentException naming {@code skewTolerance} and the value when it is out of range or null
         */
        public Builder skewTolerance(Duration skewTolerance) {
            this.skewTolerance = TimeBounds.positive(skewTolerance, "skewTolerance");
            return this;
        }

        /**
         * Sets what a firing does when the store is unreachable.
         *
         * @param storeFailurePolicy SKIP (fail closed, the default) or RUN
         * @return this builder
         * @throws NullPointerException naming {@code storeFailurePolicy} when it is null
         */
        public Builder storeFailurePolicy(StoreFailurePolicy storeFailurePolicy) {
            this.storeFailurePolicy = Objects.requireNonNull(storeFailurePolicy, "storeFailurePolicy");
            return this;
        }

        /**
         * Sets whether runs whose lease was lost are interrupted.
         *
         * @param interruptOnLeaseLost {@code true} to interrupt (default {@code false})
         * @return this builder
         */
        public Builder interruptOnLeaseLost(boolean interruptOnLeaseLost) {
            this.interruptOnLeaseLost = interruptOnLeaseLost;
            return this;
        }

        /**
         * Sets the longest a WAIT firing sleeps between checks when no release notification arrives.
         *
         * @param waitPollInterval positive, at most 3,650 days (default 1 second)
         * @return this builder
         * @throws IllegalArgumentException naming {@code waitPollInterval} and the value when it is out of range
         *                                  or null
         */
        public Builder waitPollInterval(Duration waitPollInterval) {
            this.waitPollInterval = TimeBounds.positive(waitPollInterval, "waitPollInterval");
            return this;
        }

        /**
         * Sets the most history entries per job the store keeps (the newest; a run's release trims the rest within
         * 32 releases).
         *
         * @param historySize zero (keep none) or more (default 2,000)
         * @return this builder
         * @throws IllegalArgumentException naming {@code historySize} and the value when it is negative
         */
        public Builder historySize(int historySize) {
            this.historySize = Counts.nonNegative(historySize, "historySize");
            return this;
        }

        /**
         * Sets how long history entries are kept, by fire time: a run's release drops older ones within 32 releases.
         *
         * @param historyRetention zero (by count only) to 3,650 days (default 14 days)
         * @return this builder
         * @throws IllegalArgumentException naming {@code historyRetention} and the value when it is out of range or
         *                                  null
         */
        public Builder historyRetention(Duration historyRetention) {
            this.historyRetention = TimeBounds.nonNegative(historyRetention, "historyRetention");
            return this;
        }

        /**
         * Sets this node's clock, read only to report skew, never to decide expiry.
         *
         * @param clock the clock (default {@link Clock#systemUTC()})
         * @return this builder
         * @throws NullPointerException naming {@code clock} when it is null
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets whether declared jobs' regular fire times are spread over the live fleet ({@link JobGuardConfig#spread()}).
         *
         * @param spread {@code false} to let every node ask for every fire time (default {@code true})
         * @return this builder
         */
        public Builder spread(boolean spread) {
            this.spread = spread;
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return the configuration
         * @throws IllegalArgumentException if no node was set and this host's default node id breaks the name rules
         */
        public JobGuardConfig build() {
            if (node == null) {
                node = NodeConfig.defaults();
            }
            return new JobGuardConfig(this);
        }
    }
}
