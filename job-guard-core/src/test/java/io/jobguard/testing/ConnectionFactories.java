package io.jobguard.testing;

import java.time.Duration;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Builds started Lettuce (and, for the Jedis ITs, Jedis) connection factories the way every harness type hands them out. */
final class ConnectionFactories {

    /** Tests create many factories; Lettuce's default 2 s graceful shutdown would dominate their runtime. */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofMillis(100);

    private ConnectionFactories() {
    }

    static LettuceConnectionFactory standalone(RedisStandaloneConfiguration server, Duration commandTimeout,
                                               boolean ssl) {
        LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder();
        if (ssl) {
            client.useSsl();
        }
        return started(new LettuceConnectionFactory(server, configure(client, commandTimeout)));
    }

    static LettuceConnectionFactory cluster(RedisClusterConfiguration cluster, Duration commandTimeout) {
        return started(new LettuceConnectionFactory(cluster,
                configure(LettuceClientConfiguration.builder(), commandTimeout)));
    }

    static LettuceConnectionFactory sentinel(RedisSentinelConfiguration sentinel, Duration commandTimeout) {
        return started(new LettuceConnectionFactory(sentinel,
                configure(LettuceClientConfiguration.builder(), commandTimeout)));
    }

    static JedisConnectionFactory jedisStandalone(RedisStandaloneConfiguration server, Duration commandTimeout) {
        return startedJedis(new JedisConnectionFactory(server, jedis(commandTimeout)));
    }

    static JedisConnectionFactory jedisCluster(RedisClusterConfiguration cluster, Duration commandTimeout) {
        return startedJedis(new JedisConnectionFactory(cluster, jedis(commandTimeout)));
    }

    private static JedisClientConfiguration jedis(Duration commandTimeout) {
        return JedisClientConfiguration.builder().readTimeout(commandTimeout).connectTimeout(commandTimeout)
                .usePooling().build();
    }

    private static JedisConnectionFactory startedJedis(JedisConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private static LettuceClientConfiguration configure(
            LettuceClientConfiguration.LettuceClientConfigurationBuilder client, Duration commandTimeout) {
        return client.commandTimeout(commandTimeout)
                .shutdownQuietPeriod(Duration.ZERO)
                .shutdownTimeout(SHUTDOWN_TIMEOUT)
                .build();
    }

    private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
