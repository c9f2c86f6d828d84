package com.example.observability;

import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A guarded application exposing job-guard's meters at {@code /actuator/prometheus}, for the Grafana dashboard
 * ({@code grafana/jobguard-dashboard.json}) and the alert rules ({@code prometheus/jobguard-alerts.yml}) next to it.
 */
@SpringBootApplication
@EnableScheduling
public class ObservabilityApplication {

    /**
     * Starts the application.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(ObservabilityApplication.class, args);
    }

    /** Two guarded jobs. */
    @Component
    public static class Jobs {

        /** While set, each run of {@code export} waits on it (at most 10 s), holding its lease: a test's handle. */
        public static volatile CountDownLatch hold;
        /** Counted down when a held run of {@code export} started. */
        public static volatile CountDownLatch holding = new CountDownLatch(1);

        /** Every second, once in the cluster per fire time. */
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "sync")
        public void sync() {
            // the work of the job
        }

        /**
         * Every second with a short lease, kept alive while it runs.
         *
         * @throws InterruptedException if interrupted while held
         */
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "export", lease = "1500ms")
        public void export() throws InterruptedException {
            CountDownLatch latch = hold;
            if (latch != null) {
                holding.countDown();
                latch.await(10, TimeUnit.SECONDS);
            }
        }
    }
}
