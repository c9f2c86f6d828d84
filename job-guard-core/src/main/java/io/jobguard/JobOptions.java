package io.jobguard;

import java.time.Duration;

/**
 * How one job is guarded: its cluster-wide name, guard type, lease, wait bound, keep-alive and
 * fixed-delay cool-down. Immutable; every instance is valid.
 *
 * @param name      the job name shared by all nodes (1 to {@value #MAX_NAME_LENGTH} characters, no
 *                  control characters)
 * @param type      RETURN or WAIT
 * @param lease     the run lease, positive
 * @param waitFor   how long WAIT waits for the lease, zero or positive
 * @param keepAlive whether the lease is renewed while the run is alive
 * @param cooldown  after a run ends, no run of the job starts on any node for this long (zero for
 *                  none; used for fixed-delay schedules)
 */
public record JobOptions(String name, GuardType type, Duration lease, Duration waitFor, boolean keepAlive,
                         Duration cooldown) {

    /** The longest accepted job name. */
    public static final int MAX_NAME_LENGTH = 200;

    /**
     * Validates the options.
     *
     * @throws IllegalArgumentException naming the job and the offending value
     */
    public JobOptions {
        name = JobGuardConfig.checkName(name, "job name");
        if (type == null) {
            throw new IllegalArgumentException("type of job '" + name + "' is null");
        }
        if (lease == null || lease.isZero() || lease.isNegative()) {
            throw new IllegalArgumentException("lease of job '" + name + "' must be positive, got " + lease);
        }
        if (waitFor == null) {
            waitFor = lease;
        }
        if (waitFor.isNegative()) {
            throw new IllegalArgumentException("waitFor of job '" + name + "' must not be negative, got " + waitFor);
        }
        if (cooldown == null) {
            cooldown = Duration.ZERO;
        }
        if (cooldown.isNegative()) {
            throw new IllegalArgumentException("cooldown of job '" + name + "' must not be negative, got " + cooldown);
        }
    }

    /**
     * Starts options for a RETURN job with the given lease, keep-alive on, waitFor = lease, no cool-down.
     *
     * @param name  the job name
     * @param lease the run lease
     * @return a builder
     */
    public static Builder builder(String name, Duration lease) {
        return new Builder(name, lease);
    }

    /**
     * Options for a RETURN job with keep-alive and no cool-down.
     *
     * @param name  the job name
     * @param lease the run lease
     * @return the options
     * @throws IllegalArgumentException for a blank name or a non-positive lease
     */
    public static JobOptions of(String name, Duration lease) {
        return builder(name, lease).build();
    }

    /**
     * A builder seeded with these options.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        return new Builder(name, lease).type(type).waitFor(waitFor).keepAlive(keepAlive).cooldown(cooldown);
    }

    /** Builds {@link JobOptions}; validation happens in {@link #build()}. */
    public static final class Builder {
        private final String name;
        private Duration lease;
        private GuardType type = GuardType.RETURN;
        private Duration waitFor;
        private boolean keepAlive = true;
        private Duration cooldown = Duration.ZERO;

        private Builder(String name, Duration lease) {
            this.name = name;
            this.lease = lease;
        }

        /**
         * Sets the guard type.
         *
         * @param type RETURN or WAIT
         * @return this builder
         */
        public Builder type(GuardType type) {
            this.type = type;
            return this;
        }

        /**
         * Sets the lease.
         *
         * @param lease the run lease
         * @return this builder
         */
        public Builder lease(Duration lease) {
            this.lease = lease;
            return this;
        }

        /**
         * Sets the wait bound (null = the lease).
         *
         * @param waitFor the bound
         * @return this builder
         */
        public Builder waitFor(Duration waitFor) {
            this.waitFor = waitFor;
            return this;
        }

        /**
         * Sets keep-alive.
         *
         * @param keepAlive whether to renew the lease while the run is alive
         * @return this builder
         */
        public Builder keepAlive(boolean keepAlive) {
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * Sets the fixed-delay cool-down.
         *
         * @param cooldown gap after a run ends during which no run starts
         * @return this builder
         */
        public Builder cooldown(Duration cooldown) {
            this.cooldown = cooldown;
            return this;
        }

        /**
         * Builds the options.
         *
         * @return validated options
         * @throws IllegalArgumentException naming the job and the offending value
         */
        public JobOptions build() {
            return new JobOptions(name, type, lease, waitFor, keepAlive, cooldown);
        }
    }
}
