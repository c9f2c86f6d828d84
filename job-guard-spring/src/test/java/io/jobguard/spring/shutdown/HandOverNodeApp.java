package io.jobguard.spring.shutdown;

import io.jobguard.ClusterSingleton;
import io.jobguard.RunContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Boot node for {@link GracefulShutdownMultiJvmIT}, run in a JVM of its own: a guarded job with a 60 s lease
 * whose run takes {@code test.run-millis}. Prints "NODE ..." lines the test waits for.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class HandOverNodeApp {

    public static void main(String[] args) {
        SpringApplication.run(HandOverNodeApp.class, args);
    }

    @Bean
    LongJob longJob() {
        return new LongJob(Long.getLong("test.run-millis", 120_000));
    }

    static class LongJob {
        private final long runMillis;

        LongJob(long runMillis) {
            this.runMillis = runMillis;
        }

        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "handover", lease = "60s")
        public void run() {
            RunContext run = RunContext.current().orElseThrow();
            say("RUNNING " + run.nominalFireTime().toEpochMilli());
            boolean interrupted = false;
            try {
                new CountDownLatch(1).await(runMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            say("ENDED lost=" + run.isLeaseLost() + " interrupted=" + interrupted);
        }
    }

    static void say(String line) {
        System.out.println("NODE " + line);
        System.out.flush();
    }
}
