package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A context stopped and started again (its connection factory too; a checkpoint and restore does the same): the
 * stop hands the leases over and closes admission, the start opens it again, and the guarded job runs again.
 */
@WithRedis
class ContextStopStartIT {

    @Test
    void aStoppedAndStartedContextTakesLeasesAgain(RedisServerProcess redis) {
        AccountingRuleApp.RUNS.clear();
        try (ConfigurableApplicationContext node = Nodes.context(redis, AccountingRuleApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=n", "jobguard.namespace=stop-start"))) {
            JobGuard guard = node.getBean(JobGuard.class);
            JobOptions adHoc = JobOptions.builder("ad-hoc", Duration.ofSeconds(10)).build();
            Instant t = Instant.now().minusSeconds(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> !AccountingRuleApp.RUNS.isEmpty());

            node.stop();
            assertThat(guard.run(adHoc, t, () -> { })).as("stopped: no lease").isEqualTo(RunOutcome.STORE_ERROR);
            node.start();
            assertThat(guard.run(adHoc, t, () -> { })).as("started again").isEqualTo(RunOutcome.RAN);
            Instant restarted = Instant.now();
            await().atMost(Duration.ofSeconds(30)).until(() -> AccountingRuleApp.RUNS.stream()
                    .anyMatch(r -> r.fireTime().isAfter(restarted)));
        }
    }
}
