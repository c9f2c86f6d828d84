package io.jobguard;

import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;

/**
 * How one job is guarded: its cluster-wide name, guard type, lease, wait bound, keep-alive,
 * fixed-delay cool-down, the grace of RETURN firings and how it recovers lost fire times. Immutable;
 * every instance is valid.
 *
 * @param name      the job name shared by all nodes (1 to {@value #MAX_NAME_LENGTH} characters, no
 *                  whitespace at either end, no control characters, no braces)
 * @param type      RETURN or WAIT
 * @param lease     the run lease, 1 ms to 3,650 days (every duration here is at most 3,650 days)
 * @param waitFor   how long WAIT waits for the lease, zero or positive
 * @param keepAlive whether the lease is renewed while the run is alive
 * @param cooldown  after a run ends, no run of the job starts on any node for this long (zero for
 *                  none; used for fixed-delay schedules)
 * @param busyGrace how long a RETURN firing that finds the run lease held by another run waits for
 *                  its release before it is skipped as BUSY, zero or positive (zero skips at once;
 *                  null means {@link #DEFAULT_BUSY_GRACE}, capped at the lease). Clock skew makes
 *                  nodes fire different fire times at the same instant; the grace lets a firing
 *                  that meets another fire time's short run still run. WAIT ignores it.
 * @param recovery  how {@link JobGuard#fire} recovers the job's lost fire times (its misfire policy and
 *                  delivery) before a regular run, or null when it recovers none
 */
public record JobOptions(String name, GuardType type, Duration lease, Duration waitFor, boolean keepAlive,
                         Duration cooldown, Duration busyGrace, RecoveryOptions recovery) {

    /** The longest accepted job name. */
    public static final int MAX_NAME_LENGTH = Names.MAX_LENGTH;

    /** The grace of RETURN firings of jobs that set none (capped at the job's lease). */
    public static final Duration DEFAULT_BUSY_GRACE = Duration.ofSeconds(1);

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
        TimeBounds.lease(lease, "lease of job '" + name + "'");
        if (waitFor == null) {
            waitFor = lease;
        }
        TimeBounds.nonNegative(waitFor, "waitFor of job '" + name + "'");
        if (cooldown == null) {
            cooldown = Duration.ZERO;
        }
        TimeBounds.nonNegative(cooldown, "cooldown of job '" + name + "'");
        if (busyGrace == null) {
            busyGrace = DEFAULT_BUSY_GRACE.compareTo(lease) < 0 ? DEFAULT_BUSY_GRACE : lease;
        }
        TimeBounds.nonNegative(busyGrace, "busyGrace of job '" + name + "'");
    }

    /**
     * Options that recover no lost fire times.
     *
     * @param name      the job name
     * @param type      RETURN or WAIT
     * @param lease     the run lease, 1 ms to 3,650 days (every duration here is at most 3,650 days)
     * @param waitFor   how long WAIT waits for the lease (null = the lease)
     * @param keepAlive whether the lease is renewed while the run is alive
     * @param cooldown  the fixed-delay cool-down (null = none)
     * @param busyGrace how long a RETURN firing waits for a busy run lease (null = the default)
     * @throws IllegalArgumentException naming the job and the offending value
     */
    public JobOptions(String name, GuardType type, Duration lease, Duration waitFor, boolean keepAlive,
                      Duration cooldown, Duration busyGrace) {
        this(name, type, lease, waitFor, keepAlive, cooldown, busyGrace, null);
    }

    /**
     * Options with the default busy grace ({@link #DEFAULT_BUSY_GRACE}, capped at the lease) and no recovery.
     *
     * @param name      the job name
     * @param type      RETURN or WAIT
     * @param lease     the run lease, 1 ms to 3,650 days (every duration here is at most 3,650 days)
     * @param waitFor   how long WAIT waits for the lease (null = the lease)
     * @param keepAlive whether the lease is renewed while the run is alive
     * @param cooldown  the fixed-delay cool-down (null = none)
     * @throws IllegalArgumentException naming the job and the offending value
     */
    public JobOptions(String name, GuardType type, Duration lease, Duration waitFor, boolean keepAlive,
                      Duration cooldown) {
        this(name, type, lease, waitFor, keepAlive, cooldown, null);
    }

    /**
     * Starts options for a RETURN job with the given lease, keep-alive on, waitFor = lease, no
     * cool-down, the default busy grace.
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
        return new Builder(name, lease).type(type).waitFor(waitFor).keepAlive(keepAlive).cooldown(cooldown)
                .busyGrace(busyGrace).recovery(recovery);
    }

    /** Builds {@link JobOptions}; validation happens in {@link #build()}. */
    public static final class Builder {
        private final String name;
        private Duration lease;
        private GuardType type = GuardType.RETURN;
        private Duration waitFor;
        private boolean keepAlive = true;
        private Duration cooldown = Duration.ZERO;
        private Duration busyGrace;
        private RecoveryOptions recovery;

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
         * Sets how long a RETURN firing waits for a busy run lease before it is skipped.
         *
         * @param busyGrace the grace, zero to skip at once; null for {@link #DEFAULT_BUSY_GRACE}
         *                  capped at the lease
         * @return this builder
         */
        public Builder busyGrace(Duration busyGrace) {
            this.busyGrace = busyGrace;
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
         * Builds the options.
         *
         * @return validated options
         * @throws IllegalArgumentException naming the job and the offending value
         */
        public JobOptions build() {
            return new JobOptions(name, type, lease, waitFor, keepAlive, cooldown, busyGrace, recovery);
        }
    }
}
