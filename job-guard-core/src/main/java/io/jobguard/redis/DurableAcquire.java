package io.jobguard.redis;

import io.jobguard.internal.redis.ScriptRunner;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Durable acquire, opt-in: after a run lease is granted, {@link RedisLeaseStore} sends Redis
 * {@code WAIT replicas timeout} on the connection that wrote it, and refuses the firing (releases
 * the lease, reports the store failure, so the engine skips it as {@code STORE_ERROR}) unless at
 * least {@code replicas} replicas acknowledged the write within {@code timeout}. A failover to an
 * acknowledging replica then keeps the fire-time marker, so the fire time does not run twice.
 *
 * <p>What it does not do: {@code WAIT} makes a write reach replicas' memory, not their disks
 * ({@code WAITAOF}, Redis 7.2 and later, is not used); a granted firing still depends on Sentinel
 * promoting a replica that acknowledged. On a shared (Lettuce) connection {@code WAIT} holds that
 * connection for up to {@code timeout}, delaying this node's other Redis commands meanwhile. Not
 * available on Redis Cluster (the acquire is refused with a message saying so).
 *
 * @param replicas how many replicas must acknowledge the acquire; zero turns durable acquire off
 * @param timeout  how long to wait for them, positive
 */
public record DurableAcquire(int replicas, Duration timeout) {

    private static final DurableAcquire OFF = new DurableAcquire(0, Duration.ofSeconds(1));

    /**
     * Validates the setting.
     *
     * @throws IllegalArgumentException naming the offending value
     */
    public DurableAcquire {
        if (replicas < 0) {
            throw new IllegalArgumentException("durable acquire replicas must not be negative, got " + replicas);
        }
        Objects.requireNonNull(timeout, "durable acquire timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("durable acquire timeout must be positive, got " + timeout);
        }
    }

    /**
     * Durable acquire turned off (the default): the run starts once the primary granted the lease.
     *
     * @return the setting that waits for no replica
     */
    public static DurableAcquire off() {
        return OFF;
    }

    /**
     * Tells whether an acquire waits for replicas.
     *
     * @return {@code true} when {@link #replicas()} is positive
     */
    public boolean enabled() {
        return replicas > 0;
    }

    /**
     * Waits on the connection that just wrote the lease.
     *
     * @return how many replicas acknowledged, or -1 on Redis Cluster (not supported)
     */
    long await(RedisConnection connection) {
        if (connection instanceof RedisClusterConnection) {
            return -1;
        }
        byte[][] args = {bytes(Integer.toString(replicas)), bytes(Long.toString(Math.max(1, timeout.toMillis())))};
        Object acked = LettuceWait.handles(connection) ? LettuceWait.await(connection, args)
                : connection.execute("WAIT", args);
        return acked == null ? 0 : ScriptRunner.number(acked);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
