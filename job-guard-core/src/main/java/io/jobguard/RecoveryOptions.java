package io.jobguard;

import io.jobguard.internal.Counts;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;
import java.util.Objects;

/**
 * How one job recovers fire times that were lost: missed fire times nobody started
 * ({@link MisfirePolicy}) and runs that started and never completed ({@link Delivery}). Immutable,
 * every instance is valid; value semantics. Build with {@link #builder()}, {@link #defaults()} or
 * {@link #toBuilder()}; each builder setter validates its value at once and names the setting in its
 * exception. A job carries it in {@link JobOptions#recovery()}; {@link JobGuard#fire} and
 * {@link JobGuard#recoverMissedFireTimes} apply it.
 */
public final class RecoveryOptions {

    /** The longest catch-up window, in days (the store keeps a job's run record 35 days). */
    public static final int MAX_WINDOW_DAYS = TimeBounds.MAX_CATCH_UP_WINDOW_DAYS;

    /** The catch-up window of jobs that set none. */
    public static final Duration DEFAULT_CATCH_UP_WINDOW = Duration.ofHours(1);

    /** The catch-up maximum of jobs that set none. */
    public static final int DEFAULT_CATCH_UP_MAX = 10;

    /** The attempts of {@link Delivery#AT_LEAST_ONCE} jobs that set none. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    private final MisfirePolicy misfirePolicy;
    private final Duration catchUpWindow;
    private final int catchUpMax;
    private final Delivery delivery;
    private final int maxAttempts;
    private final FireTimeSchedule schedule;

    private RecoveryOptions(Builder b) {
        this.misfirePolicy = b.misfirePolicy;
        this.catchUpWindow = b.catchUpWindow;
        this.catchUpMax = b.catchUpMax;
        this.delivery = b.delivery;
        this.maxAttempts = b.maxAttempts;
        this.schedule = b.schedule;
    }

    /**
     * The defaults: {@link MisfirePolicy#SKIP}, {@link #DEFAULT_CATCH_UP_WINDOW},
     * {@link #DEFAULT_CATCH_UP_MAX}, {@link Delivery#AT_MOST_ONCE}, {@link #DEFAULT_MAX_ATTEMPTS}, no schedule.
     *
     * @return the default options
     */
    public static RecoveryOptions defaults() {
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
     * A builder seeded with these options.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.misfirePolicy = misfirePolicy;
        b.catchUpWindow = catchUpWindow;
        b.catchUpMax = catchUpMax;
        b.delivery = delivery;
        b.maxAttempts = maxAttempts;
        b.schedule = schedule;
        return b;
    }

    /**
     * What happens to fire times nobody started.
     *
     * @return the misfire policy
     */
    public MisfirePolicy misfirePolicy() {
        return misfirePolicy;
    }

    /**
     * Only missed fire times at most this old (by the node's clock) are run or reported.
     *
     * @return the catch-up window
     */
    public Duration catchUpWindow() {
        return catchUpWindow;
    }

    /**
     * The most missed fire times {@link MisfirePolicy#RUN_ALL} runs at once.
     *
     * @return the catch-up maximum
     */
    public int catchUpMax() {
        return catchUpMax;
    }

    /**
     * What happens to runs that died.
     *
     * @return the delivery
     */
    public Delivery delivery() {
        return delivery;
    }

    /**
     * Under {@link Delivery#AT_LEAST_ONCE}, how many attempts a fire time gets in all.
     *
     * @return the attempts
     */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * The job's grid of fire times; without one (fixed delay) no fire time is ever missed and only
     * {@link #delivery()} applies.
     *
     * @return the schedule, or null
     */
    public FireTimeSchedule schedule() {
        return schedule;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecoveryOptions r && misfirePolicy == r.misfirePolicy
                && catchUpWindow.equals(r.catchUpWindow) && catchUpMax == r.catchUpMax && delivery == r.delivery
                && maxAttempts == r.maxAttempts && Objects.equals(schedule, r.schedule);
    }

    @Override
    public int hashCode() {
        return Objects.hash(misfirePolicy, catchUpWindow, catchUpMax, delivery, maxAttempts, schedule);
    }

    @Override
    public String toString() {
        return "RecoveryOptions[misfirePolicy=" + misfirePolicy + ", catchUpWindow=" + catchUpWindow
                + ", catchUpMax=" + catchUpMax + ", delivery=" + delivery + ", maxAttempts=" + maxAttempts
                + ", schedule=" + schedule + "]";
    }

    /** Builds {@link RecoveryOptions}; every setter validates its value at once. Not thread-safe. */
    public static final class Builder {
        private MisfirePolicy misfirePolicy = MisfirePolicy.SKIP;
        private Duration catchUpWindow = DEFAULT_CATCH_UP_WINDOW;
        private int catchUpMax = DEFAULT_CATCH_UP_MAX;
        private Delivery delivery = Delivery.AT_MOST_ONCE;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private FireTimeSchedule schedule;

        private Builder() {
        }

        /**
         * Sets what happens to fire times nobody started.
         *
         * @param misfirePolicy the policy, or null for {@link MisfirePolicy#SKIP} (the default)
         * @return this builder
         */
        public Builder misfirePolicy(MisfirePolicy misfirePolicy) {
            this.misfirePolicy = misfirePolicy == null ? MisfirePolicy.SKIP : misfirePolicy;
            return this;
        }

        /**
         * Sets how old a missed fire time may be (by the node's clock) and still be run or reported.
         *
         * @param catchUpWindow 1 ms to {@value #MAX_WINDOW_DAYS} days, or null for
         *                      {@link #DEFAULT_CATCH_UP_WINDOW} (the default)
         * @return this builder
         * @throws IllegalArgumentException naming {@code catch-up-window} and the value when it is out of range
         */
        public Builder catchUpWindow(Duration catchUpWindow) {
            this.catchUpWindow = catchUpWindow == null ? DEFAULT_CATCH_UP_WINDOW
                    : TimeBounds.catchUpWindow(catchUpWindow, "catch-up-window");
            return this;
        }

        /**
         * Sets the most missed fire times {@link MisfirePolicy#RUN_ALL} runs at once.
         *
         * @param catchUpMax 1 to 1000 (default {@value #DEFAULT_CATCH_UP_MAX})
         * @return this builder
         * @throws IllegalArgumentException naming {@code catch-up-max} and the value when it is out of range
         */
        public Builder catchUpMax(int catchUpMax) {
            this.catchUpMax = Counts.catchUpMax(catchUpMax, "catch-up-max");
            return this;
        }

        /**
         * Sets what happens to runs that died.
         *
         * @param delivery the delivery, or null for {@link Delivery#AT_MOST_ONCE} (the default)
         * @return this builder
         */
        public Builder delivery(Delivery delivery) {
            this.delivery = delivery == null ? Delivery.AT_MOST_ONCE : delivery;
            return this;
        }

        /**
         * Sets how many attempts a fire time gets in all under {@link Delivery#AT_LEAST_ONCE}.
         *
         * @param maxAttempts 2 to 100 (default {@value #DEFAULT_MAX_ATTEMPTS})
         * @return this builder
         * @throws IllegalArgumentException naming {@code max-attempts} and the value when it is out of range
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = Counts.maxAttempts(maxAttempts, "max-attempts");
            return this;
        }

        /**
         * Sets the job's grid of fire times.
         *
         * @param schedule the schedule, or null (the default) when the job has none (fixed delay)
         * @return this builder
         */
        public Builder schedule(FireTimeSchedule schedule) {
            this.schedule = schedule;
            return this;
        }

        /**
         * Builds the options.
         *
         * @return the options
         */
        public RecoveryOptions build() {
            return new RecoveryOptions(this);
        }
    }
}
