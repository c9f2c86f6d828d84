package io.jobguard;

import io.jobguard.internal.Names;
import io.jobguard.internal.Counts;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;
import java.util.Objects;

/**
 * How one job is guarded: its cluster-wide name, guard type, lease, wait bound, keep-alive,
 * fixed-delay cool-down, the grace of RETURN firings, how it recovers lost fire times and how it retries a failed
 * run. Immutable,
 * every instance is valid; value semantics. Build with {@link #builder(String, Duration)} or
 * {@link #toBuilder()}; each builder setter validates its value at once and names the job and the
 * setting in its exception. Every duration here is at most 3,650 days.
 */
public final class JobOptions {

    /** The longest accepted job name. */
    public static final int MAX_NAME_LENGTH = Names.MAX_LENGTH;

    /** The grace of RETURN firings of jobs that set none (capped at the job's lease). */
    public static final Duration DEFAULT_BUSY_GRACE = Duration.ofSeconds(1);

    private final String name;
    private final GuardType type;
    private final Duration lease;
    private final Duration waitFor;
    private final boolean keepAlive;
    private final Duration cooldown;
    private final Duration busyGrace;
    private final RecoveryOptions recovery;
    private final RetryPolicy retry;
    private final Integer historySize;
    private final Duration historyRetention;

    private JobOptions(Builder b) {
        this.name = b.name;
        this.type = b.type;
        this.lease = b.lease;
        this.waitFor = b.waitFor != null ? b.waitFor : b.lease;
        this.keepAlive = b.keepAlive;
        this.cooldown = b.cooldown;
        this.busyGrace = b.busyGrace != null ? b.busyGrace
                : DEFAULT_BUSY_GRACE.compareTo(b.lease) < 0 ? DEFAULT_BUSY_GRACE : b.lease;
        this.recovery = b.recovery;
        this.retry = b.retry;
        this.historySize = b.historySize;
        this.historyRetention = b.historyRetention;
    }

    /**
     * Starts options for a RETURN job with the given lease, keep-alive on, waitFor = lease, no
     * cool-down, the default busy grace and no recovery.
     *
     * @param name  the job name shared by all nodes: 1 to {@value #MAX_NAME_LENGTH} characters, no
     *              whitespace at either end, no control characters, no braces
     * @param lease the run lease, 1 ms to 3,650 days
     * @return a builder
     * @throws IllegalArgumentException naming the job and the offending value
     */
    public static Builder builder(String name, Duration lease) {
        return new Builder(Names.name(name, "job name")).lease(lease);
    }

    /**
     * A builder seeded with these options.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.lease = lease;
        b.type = type;
        b.waitFor = waitFor;
        b.keepAlive = keepAlive;
        b.cooldown = cooldown;
        b.busyGrace = busyGrace;
        b.recovery = recovery;
        b.retry = retry;
        b.historySize = historySize;
        b.historyRetention = historyRetention;
        return b;
    }

    /**
     * The job name shared by all nodes.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * RETURN or WAIT.
     *
     * @return the guard type
     */
    public GuardType type() {
        return type;
    }

    /**
     * The run lease.
     *
     * @return the lease
     */
    public Duration lease() {
        return lease;
    }

    /**
     * How long WAIT waits for the lease.
     *
     * @return the wait bound, zero or positive
     */
    public Duration waitFor() {
        return waitFor;
    }

    /**
     * Whether the lease is renewed while the run is alive.
     *
     * @return {@code true} to renew
     */
    public boolean keepAlive() {
        return keepAlive;
    }

    /**
     * After a run ends, no run of the job starts on any node for this long (used for fixed-delay
     * schedules).
     *
     * @return the cool-down, zero for none
     */
    public Duration cooldown() {
        return cooldown;
    }

    /**
     * How long a RETURN firing that finds the run lease held by another run waits for its release
     * before it is skipped as BUSY. Clock skew makes nodes fire different fire times at the same
     * instant; the grace lets a firing that meets another fire time's short run still run. WAIT
     * ignores it.
     *
     * @return the grace, zero or positive
     */
    public Duration busyGrace() {
        return busyGrace;
    }

    /**
     * How {@link JobGuard#fire} recovers the job's lost fire times (its misfire policy and delivery)
     * before a regular run.
     *
     * @return the recovery, or null when it recovers none
     */
    public RecoveryOptions recovery() {
        return recovery;
    }

    /**
     * How a fire time whose run threw is run again ({@link RetryPolicy#NONE} by default: it is not).
     *
     * @return the retry policy
     */
    public RetryPolicy retry() {
        return retry;
    }

    /**
     * The most history entries the store keeps for this job, when the job sets its own.
     *
     * @return the size, or null for the engine's default ({@link JobGuardConfig#historySize()})
     */
    public Integer historySize() {
        return historySize;
    }

    /**
     * How long the store keeps this job's history entries, by fire time, when the job sets its own.
     *
     * @return the retention (zero: by count only), or null for the engine's default
     *         ({@link JobGuardConfig#historyRetention()})
     */
    public Duration historyRetention() {
        return historyRetention;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobOptions j && name.equals(j.name) && type == j.type && lease.equals(j.lease)
                && waitFor.equals(j.waitFor) && keepAlive == j.keepAlive && cooldown.equals(j.cooldown)
                && busyGrace.equals(j.busyGrace) && Objects.equals(recovery, j.recovery)
                && retry.equals(j.retry) && Objects.equals(historySize, j.historySize)
                && Objects.equals(historyRetention, j.historyRetention);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, lease, waitFor, keepAlive, cooldown, busyGrace, recovery, retry, historySize,
                historyRetention);
    }

    @Override
    public String toString() {
        return "JobOptions[name=" + name + ", type=" + type + ", lease=" + lease + ", waitFor=" + waitFor
                + ", keepAlive=" + keepAlive + ", cooldown=" + cooldown + ", busyGrace=" + busyGrace
                + ", recovery=" + recovery + ", retry=" + retry + ", historySize=" + historySize
                + ", historyRetention=" + historyRetention + "]";
    }

    /** Builds {@link JobOptions}; every setter validates its value at once. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private Duration lease;
        private GuardType type = GuardType.RETURN;
        private Duration waitFor;
        private boolean keepAlive = true;
        private Duration cooldown = Duration.ZERO;
        private Duration busyGrace;
        private RecoveryOptions recovery;
        private RetryPolicy retry = RetryPolicy.NONE;
        private Integer historySize;
        private Duration historyRetention;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Sets the guard type.
         *
         * @param type RETURN (the default) or WAIT
         * @return this builder
         * @throws IllegalArgumentException naming the job when the type is null
         */
        public Builder type(GuardType type) {
            if (type == null) {
                throw new IllegalArgumentException("type of job '" + name + "' is null");
            }
            this.type = type;
            return this;
        }

        /**
         * Sets the lease.
         *
         * @param lease the run lease, 1 ms to 3,650 days (no default: given to {@link JobOptions#builder})
         * @return this builder
         * @throws IllegalArgumentException naming the job and the value when it is out of range or null
         */
        public Builder lease(Duration lease) {
            this.lease = TimeBounds.lease(lease, "lease of job '" + name + "'");
            return this;
        }

        /**
         * Sets how long WAIT waits for the lease.
         *
         * @param waitFor zero to 3,650 days, or null for the lease (the default)
         * @return this builder
         * @throws IllegalArgumentException naming the job and the value when it is out of range
         */
        public Builder waitFor(Duration waitFor) {
            this.waitFor = waitFor == null ? null : TimeBounds.nonNegative(waitFor, "waitFor of job '" + name + "'");
            return this;
        }

        /**
         * Sets keep-alive.
         *
         * @param keepAlive whether to renew the lease while the run is alive (default {@code true})
         * @return this builder
         */
        public Builder keepAlive(boolean keepAlive) {
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * Sets the fixed-delay cool-down: after a run ends, no run of the job starts on any node for this long.
         *
         * @param cooldown zero to 3,650 days, or null for none (default none)
         * @return this builder
         * @throws IllegalArgumentException naming the job and the value when it is out of range
         */
        public Builder cooldown(Duration cooldown) {
            this.cooldown = cooldown == null ? Duration.ZERO
                    : TimeBounds.nonNegative(cooldown, "cooldown of job '" + name + "'");
            return this;
        }

        /**
         * Sets how long a RETURN firing waits for a busy run lease before it is skipped.
         *
         * @param busyGrace zero (skip at once) to 3,650 days, or null for {@link #DEFAULT_BUSY_GRACE}
         *                  capped at the lease (the default)
         * @return this builder
         * @throws IllegalArgumentException naming the job and the value when it is out of range
         */
        public Builder busyGrace(Duration busyGrace) {
            this.busyGrace = busyGrace == null ? null
                    : TimeBounds.nonNegative(busyGrace, "busyGrace of job '" + name + "'");
            return this;
        }

        /**
         * Sets how the job recovers lost fire times: its misfire policy and delivery, applied by
         * {@link JobGuard#fire} before each regular run.
         *
         * @param recovery the recovery, or null (the default) for none
         * @return this builder
         */
        public Builder recovery(RecoveryOptions recovery) {
            this.recovery = recovery;
            return this;
        }

        /**
         * Sets how a fire time whose run threw is run again.
         *
         * @param retry the policy, or null for {@link RetryPolicy#NONE} (the default)
         * @return this builder
         */
        public Builder retry(RetryPolicy retry) {
            this.retry = retry == null ? RetryPolicy.NONE : retry;
            return this;
        }

        /**
         * Sets the most history entries the store keeps for this job.
         *
         * @param historySize zero (keep none) or more, or null for the engine's default
         * @return this builder
         * @throws IllegalArgumentException naming the job when it is negative
         */
        public Builder historySize(Integer historySize) {
            this.historySize = historySize == null ? null
                    : Integer.valueOf(Counts.nonNegative(historySize, "historySize of job '" + name + "'"));
            return this;
        }

        /**
         * Sets how long the store keeps this job's history entries, by fire time.
         *
         * @param historyRetention zero (by count only) to 3,650 days, or null for the engine's default
         * @return this builder
         * @throws IllegalArgumentException naming the job when it is negative or longer
         */
        public Builder historyRetention(Duration historyRetention) {
            this.historyRetention = historyRetention == null ? null
                    : TimeBounds.nonNegative(historyRetention, "historyRetention of job '" + name + "'");
            return this;
        }

        /**
         * Builds the options.
         *
         * @return the options
         */
        public JobOptions build() {
            return new JobOptions(this);
        }
    }
}
