package io.jobguard.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.util.concurrent.CompletableFuture;

/**
 * Sends a script without waiting for its reply, on the Lettuce connection that a
 * {@link LettuceConnectionFactory} shares between all its users (its default). Commands on one connection
 * are executed in the order they were written, so every later command through the same factory (the next
 * acquire of this node, whichever thread sends it) is executed after this one. Loaded only for a Lettuce
 * factory, so Jedis-only applications need no Lettuce.
 */
final class LettuceRelease {

    private LettuceRelease() {
    }

    /** True for a Lettuce factory that shares its native connection: only there is the order guaranteed. */
    static boolean handles(RedisConnectionFactory factory) {
        return factory.getClass().getName().startsWith("org.springframework.data.redis.connection.lettuce.")
                && factory instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection();
    }

    /**
     * Writes EVAL of {@code script} to the shared connection and returns its integer reply's future. EVAL
     * (not EVALSHA) so that a flushed script cache cannot make a retry go out after later commands.
     */
    static CompletableFuture<Long> eval(RedisConnectionFactory factory, byte[] script, byte[][] keys, byte[]... args) {
        try (RedisConnection connection = factory.getConnection()) {
            RedisClusterAsyncCommands<byte[], byte[]> async = ((LettuceConnection) connection).getNativeConnection();
            RedisFuture<Long> reply = async.eval(script, ScriptOutputType.INTEGER, keys, args);
            return reply.toCompletableFuture();
        }
    }
}
