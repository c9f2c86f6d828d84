package io.jobguard.batch;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** The batch contract on a 3-master Redis Cluster through Jedis. */
@WithRedis
class BatchLocksJedisClusterIT extends BatchLocksContract {

    private final RedisClusterProcess cluster;
    private final JedisConnectionFactory connectionFactory;

    BatchLocksJedisClusterIT(RedisClusterProcess cluster) {
        this.cluster = cluster;
        this.connectionFactory = cluster.jedisConnectionFactory();
    }

    @Override
    protected RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @Override
    protected void deleteAllKeys() {
        cluster.flushAll();
    }

    @Override
    protected void closeConnections() {
        connectionFactory.destroy();
    }
}
