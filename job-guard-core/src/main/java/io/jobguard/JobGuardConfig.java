package io.jobguard;

import io.jobguard.internal.Counts;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Node-wide settings of a {@link JobGuard}. Immutable; build with {@link #custom()},
 * {@link #ofDefaults()} or {@link #from(JobGuardConfig)}.
 *
 * @param namespace            isolates applications sharing one store (default {@code default}); one word
 *                             without {@code :}, {@code ~}, {@code |} or braces, so that no two
 *                             (namespace, job) pairs share a key
 * @param nodeId               this node's identity, recorded with every lease (default {@code hostname:pid})
 * @param defaultLease         lease of jobs that do not set one (default 5 minutes)
 * @param skewTolerance        the largest clock difference between nodes under which each fire time
 *                             still runs once (default 5 minutes)
 * @param storeFailurePolicy   what a firing does when the store is unreachable (default SKIP)
 * @param interruptOnLeaseLost whether a run whose lease was lost is interrupted (default false)
 * @param waitPollInterval     the longest a WAIT firing sleeps between checks when no release
 *                             notification arrives (default 1 second)
 * @param historySize          how many recent fire times per job the store keeps (default 20)
 * @param clock                this node's clock; read only to report skew, never to decide expiry
 */
public record JobGuardConfig(String namespace, String nodeId, Duration defaultLease,
                             Duration skewTolerance, StoreFailurePolicy storeFailurePolicy,
                             boolean interruptOnLeaseLost, Duration waitPollInterval, int historySize,
                             Clock clock) {

    /**
     * Validates the configuration.
     *
     * @throws IllegalArgumentException naming the offending setting
     */
    public JobGuardConfig {
        namespace = Names.namespace(namespace, "namespace");
        nodeId = Names.name(nodeId, "nodeId");
        TimeBounds.lease(defaultLease, "defaultLease");
        TimeBounds.positive(skewTolerance, "skewTolerance");
        TimeBounds.positive(waitPollInterval, "waitPollInterval");
        Objects.requireNonNull(storeFailurePolicy, "storeFailurePolicy");
        Objects.requireNonNull(clock, "clock");
        Counts.nonNegative(historySize, "historySize");
    }

    /**
     * The defaults: namespace {@code default}, node {@code hostname:pid},
     * lease 5 minutes, skew tolerance 5 minutes, fail closed.
     *
     * @return the default configuration
     */
    public static JobGuardConfig ofDefaults() {
        return custom().build();
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a builder
     */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * A builder starting from an existing configuration.
     *
     * @param base the configuration to copy
     * @return a builder
     */
    public static Builder from(JobGuardConfig base) {
        return custom().namespace(base.namespace).nodeId(base.nodeId).defaultLease(base.defaultLease)
                .skewTolerance(base.skewTolerance).storeFailurePolicy(base.storeFailurePolicy)
                .interruptOnLeaseLost(base.interruptOnLeaseLost).waitPollInterval(base.waitPollInterval)
                .historySize(base.historySize).clock(base.clock);
    }

    /**
     * The default node id: {@code hostname:pid}.
     *
     * @return the node id of this JVM
     */
    public static String defaultNodeId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        String runtime = ManagementFactory.getRuntimeMXBean().getName();
        long pid = ProcessHandle.current().pid();
        return host + ":" + (pid > 0 ? pid : runtime);
    }

    /**
     * Checks a name used in keys and logs: not blank, at most {@value JobOptions#MAX_NAME_LENGTH}
     * characters, no whitespace at either end, no control characters, no braces (the rules of every
     * job-guard name; namespaces have stricter ones, see {@link #namespace()}).
     *
     * @param value the name
     * @param what  what the name is, for the message
     * @return the name
     * @throws IllegalArgumentException naming {@code what} and the value
     */
    public static String checkName(String value, String what) {
        return Names.name(value, what);
    }

    /** Builds a {@link JobGuardConfig}; validation happens in {@link #build()}. */
    public static final class Builder {
        private String namespace = "default";
        private String nodeId = defaultNodeId();
        private Duration defaultLease = Duration.ofMinutes(5);
        private Duration skewTolerance = Duration.ofMinutes(5);
        private StoreFailurePolicy storeFailurePolicy = StoreFailurePolicy.SKIP;
        private boolean interruptOnLeaseLost;
        private Duration waitPollInterval = Duration.ofSeconds(1);
        private int historySize = 20;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Sets the namespace.
         *
         * @param namespace isolates applications sharing one store
         * @return this builder
         */
        public Builder namespace(String namespace) {
            this.namespace = namespace;
            return this;
        }

        /**
         * Sets the node id.
         *
         * @param nodeId this node's identity
         * @return this builder
         */
        public Builder nodeId(String nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        /**
         * Sets the default lease.
         *
         * @param defaultLease lease of jobs that do not set one
         * @return this builder
         */
        public Builder defaultLease(Duration defaultLease) {
            this.defaultLease = defaultLease;
            return this;
        }

        /**
         * Sets the skew tolerance.
         *
         * @param skewTolerance largest clock difference between nodes that is tolerated
         * @return this builder
         */
        public Builder skewTolerance(Duration skewTolerance) {
            this.skewTolerance = skewTolerance;
            return this;
        }

        /**
         * Sets the store failure policy.
         *
         * @param storeFailurePolicy SKIP (fail closed) or RUN
         * @return this builder
         */
        public Builder storeFailurePolicy(StoreFailurePolicy storeFailurePolicy) {
            this.storeFailurePolicy = storeFailurePolicy;
            return this;
        }

        /**
         * Sets whether runs whose lease was lost are interrupted.
         *
         * @param interruptOnLeaseLost {@code true} to interrupt
         * @return this builder
         */
        public Builder interruptOnLeaseLost(boolean interruptOnLeaseLost) {
            this.interruptOnLeaseLost = interruptOnLeaseLost;
            return this;
        }

        /**
         * Sets the fallback poll interval of WAIT firings.
         *
         * @param waitPollInterval longest sleep between checks without a notification
         * @return this builder
         */
        public Builder waitPollInterval(Duration waitPollInterval) {
            this.waitPollInterval = waitPollInterval;
            return this;
        }

        /**
         * Sets how many recent fire times per job are kept.
         *
         * @param historySize entries per job, zero to keep none
         * @return this builder
         */
        public Builder historySize(int historySize) {
            this.historySize = historySize;
            return this;
        }

        /**
         * Sets this node's clock (for skew reports only).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return a validated configuration
         * @throws IllegalArgumentException naming the offending setting
         */
        public JobGuardConfig build() {
            return new JobGuardConfig(namespace, nodeId, defaultLease, skewTolerance, storeFailurePolicy,
                    interruptOnLeaseLost, waitPollInterval, historySize, clock);
        }
    }
}
