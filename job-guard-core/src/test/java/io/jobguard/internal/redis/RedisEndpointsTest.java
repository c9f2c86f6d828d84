package io.jobguard.internal.redis;

import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis a store's log lines name, for both clients and every topology. The factories are real
 * ones, only not started: describing them must not need a connection (Redis may be down, which is
 * when the description matters).
 */
class RedisEndpointsTest {

    @Test
    void standaloneNamesHostPortAndANonDefaultDatabase() {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration("redis.internal", 6380);
        assertThat(RedisEndpoints.describe(new LettuceConnectionFactory(server))).isEqualTo("Redis redis.internal:6380");
        server.setDatabase(3);
        assertThat(RedisEndpoints.describe(new JedisConnectionFactory(server))).isEqualTo("Redis redis.internal:6380 db 3");
    }

    @Test
    void clusterNamesItsSeedNodes() {
        RedisClusterConfiguration cluster = new RedisClusterConfiguration(List.of("a:7000", "b:7001"));
        assertThat(RedisEndpoints.describe(new LettuceConnectionFactory(cluster)))
                .startsWith("Redis Cluster [").contains("a:7000", "b:7001");
        assertThat(RedisEndpoints.describe(new JedisConnectionFactory(cluster))).startsWith("Redis Cluster [");
    }

    @Test
    void sentinelNamesTheMasterAndTheSentinels() {
        RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration("mymaster", java.util.Set.of("s1:26379"));
        assertThat(RedisEndpoints.describe(new LettuceConnectionFactory(sentinel)))
                .isEqualTo("Redis Sentinel master 'mymaster' via [s1:26379]");
        assertThat(RedisEndpoints.describe(new JedisConnectionFactory(sentinel)))
                .isEqualTo("Redis Sentinel master 'mymaster' via [s1:26379]");
    }

    @Test
    void aUnixSocketIsNamedByItsPath() {
        assertThat(RedisEndpoints.describe(new LettuceConnectionFactory(new RedisSocketConfiguration("/run/redis.sock"))))
                .isEqualTo("Redis socket /run/redis.sock");
    }

    @Test
    void noFactoryIsSaidSo() {
        assertThat(RedisEndpoints.describe(null)).isEqualTo("no connection factory");
    }
}
