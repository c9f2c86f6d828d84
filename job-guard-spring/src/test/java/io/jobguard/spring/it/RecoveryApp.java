package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node for the recovery tests: an every-2-seconds cron job with {@code misfirePolicy = "RUN_ALL"}, on a
 * clock offset by {@code test.clock-offset-ms}; every run is written to {@link #RUNS}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
@Import(OffsetClockConfiguration.class)
class RecoveryApp {

    static final List<StartedRun> RUNS = new CopyOnWriteArrayList<>();

    @Bean
    Billing billing(@Value("${jobguard.node-id}") String node) {
        return new Billing(node);
    }

    static class Billing {
        private final String node;

        Billing(String node) {
            this.node = node;
        }

        @Scheduled(cron = "${test.cron:*/2 * * * * *}")
        @ClusterSingleton(name = "billing", lease = "10s", misfirePolicy = "RUN_ALL")
        public void bill() {
            RUNS.add(StartedRun.current(node));
        }
    }
}
