package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node for {@link AccountingRuleIT}: an every-2-seconds cron job with no recovery setting of its own (the test sets
 * the accounting rule for every job, or leaves it to the default); every run its body starts is written to
 * {@link #RUNS}, the test's own ledger.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class AccountingRuleApp {

    static final List<StartedRun> RUNS = new CopyOnWriteArrayList<>();

    @Bean
    Report report(@Value("${jobguard.node-id}") String node) {
        return new Report(node);
    }

    static class Report {
        private final String node;

        Report(String node) {
            this.node = node;
        }

        @Scheduled(cron = "*/2 * * * * *")
        @ClusterSingleton(name = "report", lease = "10s")
        public void report() {
            RUNS.add(StartedRun.current(node));
        }
    }
}
