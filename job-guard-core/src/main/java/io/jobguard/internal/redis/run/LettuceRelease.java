package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
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
 * are executed in the order they were written, so every later command through the same factory is executed
 * after this one, unless the script had to be sent again (below). Loaded only for a Lettuce factory, so
 * Jedis-only applications need no Lettuce.
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
     * Writes EVALSHA of {@code script} to the shared connection and returns its integer reply's future. When
     * Redis does not know the script (NOSCRIPT: a restart, a failover, SCRIPT FLUSH), the whole script is sent
     * again as EVAL from the reply's callback, and the future completes with that reply. The retry goes out
     * after whatever this node wrote meanwhile, so a caller that needs a later command to see this one's
     * effect waits for the future when it is not done ({@link RedisRunReleases#awaitInFlight}); by a real
     * schedule's next firing it long is. EVALSHA rather than EVAL on every firing: the whole script (2,429
     * bytes) then crosses the wire only when Redis has lost it ({@code docs/benchmarks.md}).
     */
    static CompletableFuture<Long> evalsha(RedisConnectionFactory factory, LuaScript script, byte[][] keys,
                                           byte[]... args) {
        // the native connection is taken once: the retry is written from the reply's callback, on Lettuce's
        // event loop, where nothing may block (as opening a connection could)
        RedisClusterAsyncCommands<byte[], byte[]> async;
        try (RedisConnection connection = factory.getConnection()) {
            async = ((LettuceConnection) connection).getNativeConnection();
        }
        CompletableFuture<Long> first = async.<Long>evalsha(script.sha1(), ScriptOutputType.INTEGER, keys, args)
                .toCompletableFuture();
        return first.handle((reply, failure) -> failure != null && ScriptRunner.isNoScript(failure)
                        ? async.<Long>eval(script.body(), ScriptOutputType.INTEGER, keys, args).toCompletableFuture()
                        : first)
                .thenCompose(reply -> reply);
    }
}
