package io.jobguard.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * Durable acquire, opt-in: a firing runs only if at least {@code replicas} replicas acknowledged its run lease
 * within {@code timeout}. After a run lease is granted, {@link RedisLeaseStore} sends Redis
 * {@code WAIT replicas timeout} on the connection that wrote it, and refuses the firing otherwise (releases
 * the lease, reports the store failure, so the engine skips it as {@code STORE_ERROR}). A failover to an
 * acknowledging replica then keeps the fire-time marker, so the fire time does not run twice.
 *
 * <p>What it does not do: {@code WAIT} makes a write reach replicas' memory, not their disks
 * ({@code WAITAOF}, Redis 7.2 and later, is not used); a granted firing still depends on Sentinel
 * promoting a replica that acknowledged. On a shared (Lettuce) connection {@code WAIT} holds that
 * connection for up to {@code timeout}, delaying this node's other Redis commands meanwhile. Not
 * available on Redis Cluster (the acquire is refused with a message saying so).
 *
 * <p>Immutable, every instance is valid; value semantics. Build with {@link #builder()},
 * {@link #defaults()} (off) or {@link #toBuilder()}; each builder setter validates its value at once.
 */
public final class DurableAcquire {

    private static final DurableAcquire OFF = builder().build();

    private final int replicas;
    private final Duration timeout;

    private DurableAcquire(Builder b) {
        this.replicas = b.replicas;
        this.timeout = b.timeout;
    }

    /**
     * Durable acquire turned off (the default): the run starts once the primary granted the lease.
     *
     * @return the setting that waits for no replica (replicas 0, timeout 1 second)
     */
    public static DurableAcquire defaults() {
        return OFF;
    }

    /**
     * A builder starting from the defaults (off).
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder seeded with this setting.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.replicas = replicas;
        b.timeout = timeout;
        return b;
    }

    /**
     * How many replicas must acknowledge the acquire; zero turns durable acquire off.
     *
     * @return the replicas
     */
    public int replicas() {
        return replicas;
    }

    /**
     * How long to wait for the replicas.
     *
     * @return the timeout, positive
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Tells whether an acquire waits for replicas.
     *
     * @return {@code true} when {@link #replicas()} is positive
     */
    public boolean enabled() {
        return replicas > 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DurableAcquire d && replicas == d.replicas && timeout.equals(d.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(replicas, timeout);
    }

    @Override
    public String toString() {
        return "DurableAcquire[replicas=" + replicas + ", timeout=" + timeout + "]";
    }

    /** Builds a {@link DurableAcquire}; every setter validates its value at once. Not thread-safe. */
    public static final class Builder {
        private int replicas;
        private Duration timeout = Duration.ofSeconds(1);

        private Builder() {
        }

        /**
         * Sets how many replicas must acknowledge the acquire.
         *
         * @param replicas zero (off, the default) or more
         * @return this builder
         * @throws IllegalArgumentException naming the setting and the value when it is negative
         */
        public Builder replicas(int replicas) {
            if (replicas < 0) {
                throw new IllegalArgumentException("durable acquire replicas must not be negative, got " + replicas);
            }
            this.replicas = replicas;
            return this;
        }

        /**
         * Sets how long to wait for the replicas.
         *
         * @param timeout positive (default 1 second)
         * @return this builder
         * @throws NullPointerException     naming the setting when it is null
         * @throws IllegalArgumentException naming the setting and the value when it is not positive
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "durable acquire timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("durable acquire timeout must be positive, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Builds the setting.
         *
         * @return the setting
         */
        public DurableAcquire build() {
            return new DurableAcquire(this);
        }
    }
}
