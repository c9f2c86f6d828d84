package io.jobguard.examples.demo;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.List;

/** Reads what the demo nodes recorded in Redis. */
final class RedisLists {

    private final String host;
    private final int port;

    RedisLists(String host, int port) {
        this.host = host;
        this.port = port;
    }

    List<String> range(String list) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        factory.start();
        try {
            List<String> values = new StringRedisTemplate(factory).opsForList().range(list, 0, -1);
            return values == null ? List.of() : values;
        } finally {
            factory.destroy();
        }
    }

    String get(String key) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        factory.start();
        try {
            String value = new StringRedisTemplate(factory).opsForValue().get(key);
            return value == null ? "0" : value;
        } finally {
            factory.destroy();
        }
    }
}
