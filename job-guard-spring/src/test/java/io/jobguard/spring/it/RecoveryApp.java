package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.spring.JobGuardConfigCustomizer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node for the recovery tests: an every-2-seconds cron job with {@code misfirePolicy = "RUN_ALL"}, on a
 * clock offset by {@code test.clock-offset-ms}; every run is written to {@link #RUNS}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class RecoveryApp {

    static final List<StartedRun> RUNS = new CopyOnWriteArrayList<>();

    @Bean
    Clock nodeClock(@Value("${test.clock-offset-ms:0}") long offsetMillis) {
        return Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMillis));
    }

    @Bean
    JobGuardConfigCustomizer nodeClockForEngine(Clock nodeClock) {
        return builder -> builder.clock(nodeClock);
    }

    @Bean
    ThreadPoolTaskScheduler taskScheduler(Clock nodeClock) {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(2);
        scheduler.setClock(nodeClock);
        return scheduler;
    }

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
