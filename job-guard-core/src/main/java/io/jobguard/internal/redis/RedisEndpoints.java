package io.jobguard.internal.redis;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Names the Redis a connection factory talks to ({@code Redis redis.internal:6379},
 * {@code Redis Cluster [a:7000, b:7001]}, {@code Redis Sentinel master 'mymaster' via [s1:26379]},
 * {@code Redis socket /run/redis.sock}), so that log lines about an unreachable store say which
 * Redis. Lettuce's and Jedis' factories have much the same accessors
 * ({@code getClusterConfiguration()}, ...) but no common interface, and core must not link against
 * either client, so the accessors are looked up by name; a factory without them is named by its class.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class RedisEndpoints {

    private RedisEndpoints() {
    }

    /**
     * Describes where the factory connects.
     *
     * @param factory the connection factory
     * @return the endpoint, or the factory's class name when it cannot be told; never throws
     */
    public static String describe(RedisConnectionFactory factory) {
        if (factory == null) {
            return "no connection factory";
        }
        try {
            // Jedis says isRedisClusterAware(), Lettuce isClusterAware()
            boolean cluster = Boolean.TRUE.equals(call(factory, "isRedisClusterAware"))
                    || Boolean.TRUE.equals(call(factory, "isClusterAware"));
            if (cluster && call(factory, "getClusterConfiguration") instanceof RedisClusterConfiguration c) {
                return "Redis Cluster " + nodes(c.getClusterNodes());
            }
            if (Boolean.TRUE.equals(call(factory, "isRedisSentinelAware"))
                    && call(factory, "getSentinelConfiguration") instanceof RedisSentinelConfiguration s) {
                String master = s.getMaster() == null ? "?" : s.getMaster().getName();
                return "Redis Sentinel master '" + master + "' via " + nodes(s.getSentinels()) + database(s.getDatabase());
            }
            // Lettuce only: set when the factory was made for a Unix socket, else null
            if (call(factory, "getSocketConfiguration") instanceof RedisSocketConfiguration socket) {
                return "Redis socket " + socket.getSocket() + database(socket.getDatabase());
            }
            if (call(factory, "getStandaloneConfiguration") instanceof RedisStandaloneConfiguration s) {
                return "Redis " + s.getHostName() + ":" + s.getPort() + database(s.getDatabase());
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // fall through: a factory we cannot look into is still named by its class
        }
        return factory.getClass().getSimpleName();
    }

    /**
     * Whether the factory may talk to a Redis Cluster, where keys of different hash tags live on different masters.
     *
     * @param factory the connection factory
     * @return {@code false} only when the factory says it is not cluster-aware (Lettuce's or Jedis' factory)
     */
    public static boolean mayBeCluster(RedisConnectionFactory factory) {
        try {
            Object jedis = call(factory, "isRedisClusterAware");
            Object lettuce = call(factory, "isClusterAware");
            return jedis == null && lettuce == null || Boolean.TRUE.equals(jedis) || Boolean.TRUE.equals(lettuce);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return true;
        }
    }

    private static Object call(Object target, String name) throws ReflectiveOperationException {
        Method method;
        try {
            method = target.getClass().getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
        return method.invoke(target);
    }

    private static String nodes(Collection<RedisNode> nodes) {
        List<String> names = new ArrayList<>();
        for (RedisNode node : nodes) {
            names.add(node.getHost() + ":" + node.getPort());
        }
        return names.toString();
    }

    private static String database(int database) {
        return database == 0 ? "" : " db " + database;
    }
}
