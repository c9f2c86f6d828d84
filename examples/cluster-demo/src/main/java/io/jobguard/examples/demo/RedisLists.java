package io.jobguard.examples.demo;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.List;
import java.util.function.Function;

/**
 * Reads what the demo nodes recorded in Redis.
 *
 * @param host the Redis host
 * @param port its port
 */
record RedisLists(String host, int port) {

    List<String> range(String list) {
        List<String> values = read(redis -> redis.opsForList().range(list, 0, -1));
        return values == null ? List.of() : values;
    }

    String get(String key) {
        String value = read(redis -> redis.opsForValue().get(key));
        return value == null ? "0" : value;
    }

    /** One read on a connection of its own, closed after it. */
    private <T> T read(Function<StringRedisTemplate, T> read) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        factory.start();
        try {
            return read.apply(new StringRedisTemplate(factory));
        } finally {
            factory.destroy();
        }
    }
}
