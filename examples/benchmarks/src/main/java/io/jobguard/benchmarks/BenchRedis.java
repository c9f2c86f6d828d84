package io.jobguard.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The Redis every benchmark talks to: {@code 127.0.0.1} and the port in the system property
 * {@code jobguard.bench.port} (run-batch-bench.sh starts a fresh server and sets it), and the
 * clients each contender needs.
 */
final class BenchRedis {

    static final String HOST = "127.0.0.1";

    private BenchRedis() {
    }

    static int port() {
        return Integer.getInteger("jobguard.bench.port", 6379);
    }

    static LettuceConnectionFactory springFactory() {
        return springFactory(new RedisStandaloneConfiguration(HOST, port()));
    }

    /** A started factory for a standalone Redis or a Redis Cluster (each factory its own Lettuce connection). */
    static LettuceConnectionFactory springFactory(RedisConfiguration redis) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(redis);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    static RedisClient lettuce() {
        return RedisClient.create(RedisURI.create(HOST, port()));
    }

    static RedissonClient redisson() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + HOST + ":" + port());
        return Redisson.create(config);
    }

    static List<String> keys(String prefix, int n) {
        List<String> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(prefix + String.format("%05d", i));
        }
        return keys;
    }
}
