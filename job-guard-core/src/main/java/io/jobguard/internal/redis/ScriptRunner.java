package io.jobguard.internal.redis;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Runs job-guard's Lua scripts with EVALSHA, falling back to EVAL once when the server does not
 * know the script yet (NOSCRIPT: first use, restart, failover, SCRIPT FLUSH). Works on standalone,
 * Sentinel and Cluster connection factories; on a Cluster all keys of one call share a slot.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class ScriptRunner {

    private final RedisConnectionFactory connectionFactory;

    /**
     * Creates a runner.
     *
     * @param connectionFactory where to run the scripts
     */
    public ScriptRunner(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    /**
     * Returns the connection factory.
     *
     * @return the connection factory scripts run on
     */
    public RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    /**
     * Runs a script.
     *
     * @param script     the script
     * @param returnType how Redis' reply is converted
     * @param keys       the KEYS
     * @param args       the ARGV
     * @param <T>        the reply type ({@code Long}, {@code List<Object>} with {@code byte[]}
     *                   and {@code Long} elements, ...)
     * @return the reply
     */
    public <T> T run(LuaScript script, ReturnType returnType, List<String> keys, List<String> args) {
        byte[][] keysAndArgs = encode(keys, args);
        return run(script, returnType, keys.size(), keysAndArgs);
    }

    /**
     * Runs a script with pre-encoded keys and arguments.
     *
     * @param script      the script
     * @param returnType  how Redis' reply is converted
     * @param numKeys     how many leading elements are KEYS
     * @param keysAndArgs KEYS followed by ARGV
     * @param <T>         the reply type
     * @return the reply
     */
    public <T> T run(LuaScript script, ReturnType returnType, int numKeys, byte[]... keysAndArgs) {
        try (RedisConnection connection = connectionFactory.getConnection()) {
            return run(connection, script, returnType, numKeys, keysAndArgs);
        }
    }

    /**
     * Runs a script and then, on the same connection, a follow-up with its reply (for example
     * {@code WAIT}, which only counts the writes of its own connection).
     *
     * @param script     the script
     * @param returnType how Redis' reply is converted
     * @param keys       the KEYS
     * @param args       the ARGV
     * @param then       runs after the script on the same connection, with the script's reply
     * @param <T>        the reply type
     * @return the reply
     */
    public <T> T run(LuaScript script, ReturnType returnType, List<String> keys, List<String> args,
                     BiConsumer<RedisConnection, T> then) {
        byte[][] keysAndArgs = encode(keys, args);
        try (RedisConnection connection = connectionFactory.getConnection()) {
            T reply = run(connection, script, returnType, keys.size(), keysAndArgs);
            then.accept(connection, reply);
            return reply;
        }
    }

    private static <T> T run(RedisConnection connection, LuaScript script, ReturnType returnType, int numKeys,
                             byte[]... keysAndArgs) {
        try {
            return connection.scriptingCommands().evalSha(script.sha1(), returnType, numKeys, keysAndArgs);
        } catch (RuntimeException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            return connection.scriptingCommands().eval(script.body(), returnType, numKeys, keysAndArgs);
        }
    }

    /**
     * Whether a failure (or one of its causes) is Redis' NOSCRIPT: the server does not know the script's SHA1.
     *
     * @param e the failure
     * @return true for NOSCRIPT
     */
    public static boolean isNoScript(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Decodes a bulk-string reply element.
     *
     * @param value a reply element ({@code byte[]}, {@code String}, {@code Long} or null)
     * @return its text, or null
     */
    public static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return value.toString();
    }

    /**
     * Decodes an integer reply element.
     *
     * @param value a reply element ({@code Long}, {@code byte[]} or {@code String})
     * @return its value
     */
    public static long number(Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(text(value));
    }

    /** KEYS then ARGV as UTF-8, the layout EVALSHA takes. */
    private static byte[][] encode(List<String> keys, List<String> args) {
        byte[][] keysAndArgs = new byte[keys.size() + args.size()][];
        int i = 0;
        for (String key : keys) {
            keysAndArgs[i++] = key.getBytes(StandardCharsets.UTF_8);
        }
        for (String arg : args) {
            keysAndArgs[i++] = arg.getBytes(StandardCharsets.UTF_8);
        }
        return keysAndArgs;
    }
}
