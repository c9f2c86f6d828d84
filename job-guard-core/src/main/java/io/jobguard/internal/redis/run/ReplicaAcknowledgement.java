package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.ScriptRunner;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * How a granted acquire waits for replicas ({@code io.jobguard.redis.DurableAcquire}, as the acquire uses it): one
 * {@code WAIT replicas timeout} on the connection that wrote the lease, whose count the acquire compares with
 * {@code replicas}.
 *
 * @param replicas how many replicas must acknowledge; 0 = no wait
 * @param timeout  how long {@code WAIT} may block
 */
public record ReplicaAcknowledgement(int replicas, Duration timeout) {

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
     * @param connection the connection of the acquire's script call
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
