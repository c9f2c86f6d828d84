package io.jobguard.spring.it;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockUnavailableException;
import io.jobguard.batch.BatchLocks;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.spring.actuator.JobGuardEndpoint;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spring Boot auto-configures batch locks: a {@code @BatchLocked} service locks, conflicts and is measured. */
@WithRedis
class BatchLockedBootIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Reservations reservations() {
            return new Reservations();
        }
    }

    /** Reserves the SKUs of an order while all of them are locked. */
    static class Reservations {
        private final AtomicInteger reserved = new AtomicInteger();

        public int reservedCount() {
            return reserved.get();
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s")
        public int reserve(List<String> skus) {
            return reserved.addAndGet(skus.size());
        }
    }

    @Test
    void bootWiresBatchLocksTheAdvisorAndTheMeters(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = Nodes.context(redis, App.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=batch-node", "jobguard.batch.chunk-size=500",
                        "management.endpoints.jmx.exposure.include=jobguard",
                        "management.endpoints.web.exposure.include=jobguard"))) {
            BatchLocks locks = app.getBean(BatchLocks.class);
            assertThat(locks).isInstanceOf(RedisBatchLocks.class);
            assertThat(((RedisBatchLocks) locks).config().chunkSize()).isEqualTo(500);
            Reservations service = app.getBean(Reservations.class);

            assertThat(service.reserve(List.of("a", "b", "c"))).isEqualTo(3);

            BatchAttempt held = locks.tryAcquire("sku", List.of("c", "d"), Duration.ofSeconds(30));
            try (BatchLease lease = held.orElseThrow()) {
                assertThat(lease.isValid()).isTrue();
                assertThatThrownBy(() -> service.reserve(List.of("x", "c")))
                        .isInstanceOf(BatchLockUnavailableException.class)
                        .hasMessageContaining("c");
                assertThat(service.reservedCount()).isEqualTo(3);
                assertThat(app.getBean(JobGuardEndpoint.class).report().batchLeases())
                        .singleElement().satisfies(entry -> {
                            assertThat(entry.namespace()).isEqualTo("sku");
                            assertThat(entry.holder()).isEqualTo("batch-node");
                            assertThat(entry.fencingToken()).isEqualTo(lease.fencingToken());
                            assertThat(java.time.Duration.parse(entry.expiresIn())).isPositive();
                        });
            }
            assertThat(service.reserve(List.of("x", "c"))).isEqualTo(5);

            MeterRegistry registry = app.getBean(MeterRegistry.class);
            assertThat(registry.find("jobguard.batch.acquire").timers()).isNotEmpty();
            assertThat(registry.find("jobguard.batch.keys").summary()).isNotNull();
        }
    }

    @Test
    void batchLockedMethodsWithoutBatchLocksFailTheStartupInsteadOfRunningUnlocked(RedisServerProcess redis) {
        assertThatThrownBy(() -> Nodes.context(redis, App.class, WebApplicationType.NONE,
                List.of("jobguard.batch.enabled=false")).close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@BatchLocked method " + Reservations.class.getName() + ".reserve")
                .hasMessageContaining("no BatchLocks bean");
    }
}
