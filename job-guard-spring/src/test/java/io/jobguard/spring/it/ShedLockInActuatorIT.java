package io.jobguard.spring.it;

import io.jobguard.NodeConfig;
import io.jobguard.shedlock.JobGuardLockProvider;
import io.jobguard.spring.actuator.JobGuardEndpoint;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Locks taken through job-guard's ShedLock provider appear in the jobguard endpoint while held. */
@WithRedis
class ShedLockInActuatorIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        JobGuardLockProvider lockProvider(RedisConnectionFactory redis) {
            return JobGuardLockProvider.builder(redis).namespace("billing").node(NodeConfig.builder()
                    .nodeId("lock-node").build()).build();
        }
    }

    @Test
    void heldShedLocksAreListed(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, App.class, WebApplicationType.NONE,
                List.of("management.endpoints.jmx.exposure.include=jobguard",
                        "management.endpoints.web.exposure.include=jobguard"))) {
            JobGuardLockProvider provider = app.getBean(JobGuardLockProvider.class);
            JobGuardEndpoint endpoint = app.getBean(JobGuardEndpoint.class);
            SimpleLock lock = provider.lock(new LockConfiguration(Instant.now(), "nightly-report",
                    Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
            assertThat(endpoint.report().shedLocks()).singleElement()
                    .isInstanceOfSatisfying(JobGuardLockProvider.HeldLock.class, held -> {
                        assertThat(held.name()).isEqualTo("nightly-report");
                        assertThat(held.nodeId()).isEqualTo("lock-node");
                    });
            lock.unlock();
            assertThat(endpoint.report().shedLocks()).isEmpty();
        }
    }
}
