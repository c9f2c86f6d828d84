package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.RunContext;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node for the retry test: a cron job every 20 seconds, on a clock offset by {@code test.clock-offset-ms}, whose
 * runs throw on their first {@code test.failures} attempts of each fire time, wherever they run; every attempt is
 * written to {@link #ATTEMPTS}. Its retries are set by properties ({@code jobguard.jobs.flaky.*}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
@Import(OffsetClockConfiguration.class)
class RetryApp {

    static final List<Attempt> ATTEMPTS = new CopyOnWriteArrayList<>();

    /** One attempt a body started: its fire time, attempt, fencing token and node. */
    record Attempt(Instant fireTime, int attempt, long fencingToken, String node) {
    }

    @Bean
    Flaky flaky(@Value("${jobguard.node-id}") String node, @Value("${test.failures:2}") int failures) {
        return new Flaky(node, failures);
    }

    static class Flaky {
        private final String node;
        private final int failures;

        Flaky(String node, int failures) {
            this.node = node;
            this.failures = failures;
        }

        @Scheduled(cron = "*/20 * * * * *")
        @ClusterSingleton(name = "flaky", lease = "10s")
        public void export() {
            RunContext run = RunContext.current().orElseThrow();
            ATTEMPTS.add(new Attempt(run.nominalFireTime(), run.attempt(), run.fencingToken(), node));
            if (run.attempt() <= failures) {
                throw new IllegalStateException("attempt " + run.attempt() + " of " + run.nominalFireTime()
                        + " fails on purpose");
            }
        }
    }
}
