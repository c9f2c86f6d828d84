package io.jobguard.fencing;

import io.jobguard.internal.Names;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Fenced writes for jobs whose output is Redis: a value is written only if the writer's fencing token is not lower
 * than the highest token that has written to the resource. {@link #set(String, long, String, String, Duration)}
 * checks, writes and records the token in one Lua script (check and write are atomic). A stale run is refused with
 * {@link StaleFencingTokenException} and writes nothing.
 *
 * <p>The resource's fence lives under {@code <prefix>:fence:{<resource>}}. On a Redis Cluster the data key must
 * hash to the same slot: put {@code {<resource>}} in it (for example {@code report:{daily}:2026-11-23} for the
 * resource {@code daily}). Thread-safe; the connection factory is not closed by this class.
 */
public final class RedisFence {

    private static final LuaScript SET = LuaScript.load("fence-set");

    private final ScriptRunner scripts;
    private final String prefix;

    private RedisFence(RedisConnectionFactory connectionFactory, String prefix) {
        this.scripts = new ScriptRunner(connectionFactory);
        this.prefix = prefix;
    }

    /**
     * A fence with the key prefix {@code jobguard}.
     *
     * @param connectionFactory where the fenced keys live
     * @return the fence
     */
    public static RedisFence create(RedisConnectionFactory connectionFactory) {
        return create(connectionFactory, "jobguard");
    }

    /**
     * A fence with another key prefix.
     *
     * @param connectionFactory where the fenced keys live
     * @param keyPrefix         first segment of the fence keys
     * @return the fence
     * @throws IllegalArgumentException if the prefix breaks job-guard's key-prefix rule ({@code Names.keyPrefix}:
     *                                  non-blank, no braces, control characters or whitespace)
     */
    public static RedisFence create(RedisConnectionFactory connectionFactory, String keyPrefix) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        Names.keyPrefix(keyPrefix, "keyPrefix");
        return new RedisFence(connectionFactory, keyPrefix);
    }

    /**
     * Writes {@code value} under {@code key} if {@code token} is not lower than the resource's highest token.
     *
     * @param resource what the write belongs to (its fence)
     * @param token    the writer's fencing token
     * @param key      the data key (same hash slot as the fence on a Cluster)
     * @param value    the value
     * @param ttl      the value's time to live, or {@link Duration#ZERO} for none
     * @throws StaleFencingTokenException if a higher token has written to the resource
     * @throws IllegalArgumentException   if {@code token} is negative or {@code resource} contains braces
     */
    public void set(String resource, long token, String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(ttl, "ttl");
        if (token < 0) {
            throw new IllegalArgumentException("fencing token must not be negative, got " + token);
        }
        List<Object> reply = scripts.run(SET, ReturnType.MULTI, List.of(fenceKey(resource), key),
                List.of(Long.toString(token), value, Long.toString(Math.max(0, ttl.toMillis()))));
        if (ScriptRunner.number(reply.get(0)) != 1L) {
            throw new StaleFencingTokenException(resource, token, ScriptRunner.number(reply.get(1)));
        }
    }

    /**
     * The key holding a resource's highest token.
     *
     * @param resource the resource
     * @return the fence key
     */
    public String fenceKey(String resource) {
        Objects.requireNonNull(resource, "resource");
        if (resource.contains("{") || resource.contains("}")) {
            throw new IllegalArgumentException("resource must be free of '{' and '}', got '" + resource + "'");
        }
        return prefix + ":fence:{" + resource + "}";
    }
}
