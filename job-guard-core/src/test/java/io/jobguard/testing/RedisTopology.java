package io.jobguard.testing;

import java.time.Duration;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * One Redis topology reached through one client, as a contract test uses it: a started connection factory,
 * how to empty the servers behind it, and how to close it.
 *
 * <p>Guarantees: every factory method builds a new, started connection factory exactly as the harness type
 * hands it out (its command timeout and client options); {@link #flushAll()} deletes every key the factory
 * can reach, through the harness (not through the factory); {@link #close()} destroys the factory and leaves
 * the servers running, since they belong to {@link RedisExtension}.
 */
public final class RedisTopology implements AutoCloseable {

    private final String description;
    private final RedisConnectionFactory connectionFactory;
    private final DisposableBean factoryLifecycle;
    private final Runnable flushAll;

    private <F extends RedisConnectionFactory & DisposableBean> RedisTopology(String description, F factory,
                                                                             Runnable flushAll) {
        this.description = description;
        this.connectionFactory = factory;
        this.factoryLifecycle = factory;
        this.flushAll = flushAll;
    }

    /**
     * Lettuce on a standalone server, with {@link RedisEndpoint#DEFAULT_COMMAND_TIMEOUT}.
     *
     * @param server the server
     * @return the topology, with a started factory
     */
    public static RedisTopology standaloneLettuce(RedisServerProcess server) {
        return standaloneLettuce(server, RedisEndpoint.DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * Lettuce on a standalone server.
     *
     * @param server         the server
     * @param commandTimeout how long a command may take before it fails with a timeout
     * @return the topology, with a started factory
     */
    public static RedisTopology standaloneLettuce(RedisServerProcess server, Duration commandTimeout) {
        return new RedisTopology("standalone lettuce " + server, server.connectionFactory(commandTimeout),
                server::flushAll);
    }

    /**
     * Pooled Jedis on a standalone server ({@link RedisServerProcess#jedisConnectionFactory()}).
     *
     * @param server the server
     * @return the topology, with a started factory
     */
    public static RedisTopology standaloneJedis(RedisServerProcess server) {
        return new RedisTopology("standalone jedis " + server, server.jedisConnectionFactory(), server::flushAll);
    }

    /**
     * Lettuce on a Redis Cluster ({@link RedisClusterProcess#connectionFactory()}).
     *
     * @param cluster the cluster
     * @return the topology, with a started factory
     */
    public static RedisTopology clusterLettuce(RedisClusterProcess cluster) {
        return new RedisTopology("cluster lettuce " + cluster, cluster.connectionFactory(), cluster::flushAll);
    }

    /**
     * Pooled Jedis on a Redis Cluster ({@link RedisClusterProcess#jedisConnectionFactory()}).
     *
     * @param cluster the cluster
     * @return the topology, with a started factory
     */
    public static RedisTopology clusterJedis(RedisClusterProcess cluster) {
        return new RedisTopology("cluster jedis " + cluster, cluster.jedisConnectionFactory(), cluster::flushAll);
    }

    /**
     * Lettuce finding the master through Sentinel ({@link RedisSentinelProcess#connectionFactory()}).
     *
     * @param sentinel the master, replica and Sentinel
     * @return the topology, with a started factory
     */
    public static RedisTopology sentinelLettuce(RedisSentinelProcess sentinel) {
        return new RedisTopology("sentinel lettuce " + sentinel, sentinel.connectionFactory(), sentinel::flushAll);
    }

    /**
     * The started factory; valid until {@link #close()}.
     *
     * @return the connection factory
     */
    public RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    /** Deletes every key on the servers behind the factory (for Sentinel: on the current master). */
    public void flushAll() {
        flushAll.run();
    }

    /** Destroys the connection factory; the servers keep running. */
    @Override
    public void close() {
        try {
            factoryLifecycle.destroy();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not destroy the connection factory of " + description, e);
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
