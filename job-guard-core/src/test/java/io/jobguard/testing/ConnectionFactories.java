package io.jobguard.testing;

import java.time.Duration;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Builds started Lettuce connection factories the way every harness type hands them out. */
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
