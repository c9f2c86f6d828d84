package io.jobguard.redis;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The startup check of Redis' maxmemory-policy, against a real redis-server set
 * to each kind of policy with CONFIG SET, a user whose ACL forbids CONFIG, and a Cluster.
 */
@WithRedis
class RedisEvictionCheckIT {

    private static final String FIX = "jobguard.redis.eviction-check=warn";

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;

    RedisEvictionCheckIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    @AfterEach
    void restore() {
        redis.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.call("CONFIG", "SET", "maxmemory", "0");
        redis.call("ACL", "DELUSER", "limited");
        connectionFactory.destroy();
    }

    private void policy(String policy, String maxmemory) {
        redis.call("CONFIG", "SET", "maxmemory-policy", policy);
        redis.call("CONFIG", "SET", "maxmemory", maxmemory);
    }

    @Test
    void noevictionPasses() {
        assertThat(RedisEvictionCheck.check(connectionFactory, RedisEvictionCheck.Mode.FAIL, FIX))
                .isEqualTo(RedisEvictionCheck.Verdict.SAFE);
    }

    @Test
    void allkeysUnderAMemoryLimitFailsStartupNamingThePolicyAndTheFix() {
        for (String policy : new String[] {"allkeys-lru", "allkeys-lfu", "allkeys-random"}) {
            policy(policy, "512mb");
            assertThatThrownBy(() -> RedisEvictionCheck.check(connectionFactory, RedisEvictionCheck.Mode.FAIL, FIX))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("maxmemory-policy " + policy)
                    .hasMessageContaining("noeviction")
                    .hasMessageContaining(FIX);
            assertThat(RedisEvictionCheck.check(connectionFactory, RedisEvictionCheck.Mode.WARN, FIX))
                    .isEqualTo(RedisEvictionCheck.Verdict.UNSAFE);
        }
    }

    @Test
    void allkeysWithoutALimitAndVolatilePoliciesWarn() {
        policy("allkeys-lru", "0");
        assertThat(RedisEvictionCheck.check(connectionFactory, RedisEvictionCheck.Mode.FAIL, FIX))
                .isEqualTo(RedisEvictionCheck.Verdict.WARNED);
        for (String policy : new String[] {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"}) {
            policy(policy, "512mb");
            assertThat(RedisEvictionCheck.check(connectionFactory, RedisEvictionCheck.Mode.FAIL, FIX))
                    .as(policy).isEqualTo(RedisEvictionCheck.Verdict.WARNED);
        }
    }

    @Test
    void offChecksNothing() {
        policy("allkeys-lru", "512mb");
        assertThat(RedisEvictionCheck.check(connectionFactory, RedisEvictionCheck.Mode.OFF, FIX))
                .isEqualTo(RedisEvictionCheck.Verdict.UNKNOWN);
    }

    @Test
    void configForbiddenByAclSkipsTheCheck() {
        policy("allkeys-lru", "512mb");
        redis.call("ACL", "SETUSER", "limited", "on", ">secret", "~*", "&*", "+@all", "-config");
        RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(redis.host(), redis.port());
        standalone.setUsername("limited");
        standalone.setPassword("secret");
        LettuceConnectionFactory limited = new LettuceConnectionFactory(standalone,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        limited.afterPropertiesSet();
        limited.start();
        try {
            assertThat(RedisEvictionCheck.check(limited, RedisEvictionCheck.Mode.FAIL, FIX))
                    .isEqualTo(RedisEvictionCheck.Verdict.UNKNOWN);
        } finally {
            limited.destroy();
        }
    }

    @Test
    void clusterNodesAreEachChecked(RedisClusterProcess cluster) {
        LettuceConnectionFactory factory = cluster.connectionFactory();
        try {
            assertThat(RedisEvictionCheck.check(factory, RedisEvictionCheck.Mode.FAIL, FIX))
                    .isEqualTo(RedisEvictionCheck.Verdict.SAFE);
            cluster.masters().get(1).call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            cluster.masters().get(1).call("CONFIG", "SET", "maxmemory", "512mb");
            assertThatThrownBy(() -> RedisEvictionCheck.check(factory, RedisEvictionCheck.Mode.FAIL, FIX))
                    .hasMessageContaining("allkeys-lru");
        } finally {
            cluster.masters().get(1).call("CONFIG", "SET", "maxmemory-policy", "noeviction");
            cluster.masters().get(1).call("CONFIG", "SET", "maxmemory", "0");
            factory.destroy();
        }
    }
}
