package io.jobguard.spring.it;

import io.jobguard.BatchLocked;
import io.jobguard.ClusterSingleton;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

import java.util.List;

/**
 * A guarded job every second, observed by Micrometer's {@link TestObservationRegistry}, which is
 * also Spring's registry for scheduled methods (so each firing has Spring's own
 * {@code tasks.scheduled.execution} observation as its parent).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class TracedApp {

    @Bean
    TestObservationRegistry observationRegistry() {
        return TestObservationRegistry.create();
    }

    @Bean
    SchedulingConfigurer observedScheduling(ObservationRegistry observationRegistry) {
        return registrar -> registrar.setObservationRegistry(observationRegistry);
    }

    @Bean
    Traced traced() {
        return new Traced();
    }

    @Bean
    Skus skus() {
        return new Skus();
    }

    static class Skus {
        @BatchLocked(namespace = "sku", keys = "#skus")
        public int reserve(List<String> skus) {
            return skus.size();
        }
    }

    static class Traced {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "traced", lease = "10s")
        public void run() {
        }
    }
}
