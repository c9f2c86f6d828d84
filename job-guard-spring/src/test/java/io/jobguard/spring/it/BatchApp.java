package io.jobguard.spring.it;

import io.jobguard.BatchLocked;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import io.jobguard.NodeConfig;
import io.jobguard.shedlock.JobGuardLockProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A web application with a {@code @BatchLocked} service that holds its keys until the test lets go. */
@SpringBootConfiguration
@EnableAutoConfiguration
class BatchApp {

    static volatile CountDownLatch holding = new CountDownLatch(1);
    static volatile CountDownLatch release = new CountDownLatch(1);

    static void reset() {
        holding = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    @Bean
    JobGuardLockProvider shedLockProvider(RedisConnectionFactory redis) {
        return JobGuardLockProvider.builder(redis).keyPrefix("bootbatch").namespace("batch").node(NodeConfig.builder()
                .nodeId("batch-node").build())
                .build();
    }

    @Bean
    Reservations reservations() {
        return new Reservations();
    }

    /** Locks SKUs with the configured default lease (the annotation sets none). */
    static class Reservations {
        @BatchLocked(namespace = "sku", keys = "#skus")
        public int reserve(List<String> skus) throws InterruptedException {
            holding.countDown();
            release.await(20, TimeUnit.SECONDS);
            return skus.size();
        }

        @BatchLocked(namespace = "sku", keys = "#skus")
        public int quick(List<String> skus) {
            return skus.size();
        }
    }
}
