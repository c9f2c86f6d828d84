package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The eviction-policy check through Boot: a Redis whose maxmemory-policy may evict any key fails the
 * context at startup, naming the policy, the fix and the property that turns it into a WARN.
 */
@WithRedis
class EvictionPolicyStartupIT {

    private final RedisServerProcess redis;

    EvictionPolicyStartupIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void restore() {
        redis.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.call("CONFIG", "SET", "maxmemory", "0");
    }

    @Test
    void allkeysLruUnderAMemoryLimitFailsStartup() {
        redis.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        redis.call("CONFIG", "SET", "maxmemory", "512mb");
        assertThatThrownBy(() -> start().close()).satisfies(e -> {
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                all.append(t.getMessage()).append('\n');
            }
            assertThat(all.toString()).contains("maxmemory-policy allkeys-lru", "noeviction",
                    "jobguard.redis.eviction-check=warn");
        });
    }

    @Test
    void warnModeStartsAndNoevictionStartsSilently() {
        redis.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        redis.call("CONFIG", "SET", "maxmemory", "512mb");
        try (ConfigurableApplicationContext ok = start("jobguard.redis.eviction-check=warn")) {
            assertThat(ok.getBean(JobGuard.class)).isNotNull();
        }
        restore();
        try (ConfigurableApplicationContext ok = start()) {
            assertThat(ok.getBean(JobGuard.class)).isNotNull();
        }
    }

    private ConfigurableApplicationContext start(String... props) {
        List<String> all = new ArrayList<>(Arrays.asList(props));
        all.add("jobguard.node-id=eviction");
        all.add("test.case=valid");
        return Nodes.context(redis, BrokenApps.class, WebApplicationType.NONE, all);
    }
}
