package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A web application whose guarded job holds its lease until the test lets it go. */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class WebApp {

    static volatile CountDownLatch started = new CountDownLatch(1);
    static volatile CountDownLatch release = new CountDownLatch(1);

    static void reset() {
        started = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    @Bean
    HeldJob heldJob() {
        return new HeldJob();
    }

    /** Every second; the first run holds the lease until released. */
    static class HeldJob {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "held", lease = "30s")
        public void run() throws InterruptedException {
            started.countDown();
            release.await(20, TimeUnit.SECONDS);
        }
    }
}
