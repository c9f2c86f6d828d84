package io.jobguard.spring.it;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retries through Boot: two nodes (clocks at -1 s and +2 s) run a cron job whose runs throw on their first two
 * attempts, with {@code attempts}, back-off and jitter set by {@code jobguard.jobs.flaky.*}. The recovery pass of
 * whichever node looks first runs each attempt once it is due, so a fire time ends after three attempts, each run once,
 * tokens growing, the last one {@code RAN}.
 */
@WithRedis
class RetryBootIT {

    private static List<String> props(String node, long offset) {
        return List.of("jobguard.node-id=" + node, "jobguard.namespace=retry", "test.clock-offset-ms=" + offset,
                "jobguard.skew-tolerance=5s", "jobguard.jobs.flaky.attempts=3",
                "jobguard.jobs.flaky.retry-backoff=500ms", "jobguard.jobs.flaky.retry-multiplier=1",
                "jobguard.jobs.flaky.retry-jitter=0");
    }

    @Test
    void aFireTimeThatFailsTwiceEndsWithItsThirdAttemptEachAttemptRunOnce(RedisServerProcess redis) {
        RetryApp.ATTEMPTS.clear();
        List<JobEvent> events = new CopyOnWriteArrayList<>();
        Instant t;
        try (Nodes nodes = Nodes.start(redis, RetryApp.class, List.of(props("a", -1_000), props("b", 2_000)))) {
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                node.getBean(JobGuard.class).addListener(events::add);
            }
            // the first fire time whose first attempt starts after both nodes listen
            Instant listening = Instant.now();
            await().atMost(Duration.ofSeconds(45)).until(() -> RetryApp.ATTEMPTS.stream()
                    .anyMatch(a -> a.attempt() == 1 && a.fireTime().isAfter(listening.plusSeconds(3))));
            t = RetryApp.ATTEMPTS.stream().filter(a -> a.attempt() == 1 && a.fireTime().isAfter(listening.plusSeconds(3)))
                    .findFirst().orElseThrow().fireTime();
            await().atMost(Duration.ofSeconds(15)).until(() -> events.stream()
                    .anyMatch(e -> e.nominalFireTime().equals(t) && e.outcome() == RunOutcome.RAN));
            // each attempt's pass would run it again within a second if it could
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> attemptsOf(t).size() == 3);
        }
        List<RetryApp.Attempt> ofT = attemptsOf(t);
        assertThat(ofT).extracting(RetryApp.Attempt::attempt).containsExactly(1, 2, 3);
        assertThat(ofT).extracting(RetryApp.Attempt::fencingToken).isSortedAccordingTo(Comparator.naturalOrder())
                .doesNotHaveDuplicates();
        List<JobEvent> outcomes = events.stream().filter(e -> e.nominalFireTime().equals(t) && e.outcome().bodyStarted())
                .toList();
        assertThat(outcomes).extracting(JobEvent::outcome)
                .containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRY_PENDING, RunOutcome.RAN);
        assertThat(outcomes).extracting(JobEvent::attempt).containsExactly(1, 2, 3);
    }

    private static List<RetryApp.Attempt> attemptsOf(Instant t) {
        return RetryApp.ATTEMPTS.stream().filter(a -> a.fireTime().equals(t)).toList();
    }
}
