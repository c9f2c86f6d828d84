package io.jobguard.internal.redis.run;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * {@code WAIT} on a Lettuce connection: spring-data-redis' untyped {@code execute} reads the reply
 * as bytes, which Lettuce refuses for an integer reply, so the output type is given here. Loaded
 * only when the connection is a Lettuce one, so Jedis-only applications need no Lettuce.
 */
final class LettuceWait {

    private LettuceWait() {
    }

    static boolean handles(RedisConnection connection) {
        return connection.getClass().getName().startsWith("org.springframework.data.redis.connection.lettuce.");
    }

    static Object await(RedisConnection connection, byte[]... args) {
        return ((LettuceConnection) connection).execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE), args);
    }
}
