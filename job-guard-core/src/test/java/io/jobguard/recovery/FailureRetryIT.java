package io.jobguard.recovery;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.LeaseLostException;
import io.jobguard.RetryPolicy;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.jobguard.recovery.RetryNodes.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retries of failed runs against a real Redis, with three engines on their own connections and clocks at -2 s, 0 and
 * +3 s: attempt k+1 of a fire time is due a back-off after attempt k failed (by Redis' clock), any node runs it, each
 * attempt runs once with a higher fencing token, and the job's history shows every attempt with its node and token.
 * The rules around it: the next fire time supersedes a pending attempt, a lost lease is not retried, a paused job's
 * attempt waits, the last attempt's failure is {@link RunOutcome#RETRIES_EXHAUSTED}.
 */
@WithRedis
class FailureRetryIT {

    private final RedisServerProcess redis;
    private RetryNodes fleet;
    private final List<JobGuard> nodes = new ArrayList<>();

    FailureRetryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        redis.flushAll();
        fleet = new RetryNodes(redis, "jgretry");
        nodes.add(node("n-behind", -2_000));
        nodes.add(node("n-even", 0));
        nodes.add(node("n-ahead", 3_000));
    }

    @AfterEach
    void close() throws Exception {
        fleet.close();
    }

    /** A node whose clock is {@code skewMillis} off. */
    private JobGuard node(String id, long skewMillis) {
        return fleet.node(id, c -> c.skewTolerance(Duration.ofSeconds(5))
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(skewMillis))));
    }

    @Test
    void aFireTimeThatFailsTwiceRunsItsThirdAttemptOnceOnSomeNodeWithHigherTokens() throws Exception {
        String name = "fails-twice";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMillis(300), 2, Duration.ofSeconds(5), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fleet.fire(nodes.get(1), job, t, fleet.failingFirst(2, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);

        // every node looks for due attempts at once, over and over, as their background passes do
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch ran = new CountDownLatch(1);
        List<Future<?>> lookers = new ArrayList<>();
        for (JobGuard node : nodes) {
            String id = node.config().nodeId();
            lookers.add(pool.submit(() -> {
                while (!done.get()) {
                    node.runDueRetry(job, () -> {
                        fleet.failingFirst(2, id).run();
                        ran.countDown();
                    });
                }
            }));
        }
        try {
            assertThat(ran.await(20, TimeUnit.SECONDS)).as("the third attempt ran").isTrue();
            // a while longer: a second run of any attempt would show up here
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> fleet.attempts.size() == 3);
        } finally {
            done.set(true);
            for (Future<?> f : lookers) {
                f.get(10, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
        }

        assertThat(fleet.attempts).hasSize(3);
        assertThat(fleet.attempts.stream().map(a -> a.split("\\|")[1]).toList()).containsExactly("1", "2", "3");
        List<Long> tokens = fleet.attempts.stream().map(a -> Long.parseLong(a.split("\\|")[2])).toList();
        assertThat(tokens).isSortedAccordingTo(Comparator.naturalOrder()).doesNotHaveDuplicates();
        assertThat(fleet.outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRY_PENDING, RunOutcome.RAN);
        assertThat(fleet.events.stream().filter(e -> e.job().equals(name)).map(JobEvent::attempt).toList())
                .containsExactly(1, 2, 3);

        List<RunHistory.FireEntry> recorded = fleet.history(name);
        assertThat(recorded).extracting(RunHistory.FireEntry::attempt).containsExactly(3, 2, 1);
        assertThat(recorded).extracting(RunHistory.FireEntry::outcome)
                .containsExactly("RAN", "RETRY_PENDING", "RETRY_PENDING");
        assertThat(recorded).allSatisfy(e -> assertThat(e.nominalFireTime()).isEqualTo(t));
        assertThat(recorded).extracting(RunHistory.FireEntry::fencingToken)
                .containsExactly(tokens.get(2), tokens.get(1), tokens.get(0));
        for (int i = 0; i < 3; i++) {
            assertThat(recorded.get(2 - i).node()).contains(fleet.attempts.get(i).split("\\|")[0]);
        }
        assertThat(nodes.get(0).retryDueAt(job)).isEmpty();
    }

    @Test
    void anAttemptIsNotRunBeforeItsBackoffHasPassedByRedisClock() {
        String name = "not-due";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofSeconds(4), 1, Duration.ofSeconds(4), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fleet.fire(nodes.get(1), job, t, fleet.failingFirst(1, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);
        // on the clock of the node that asks (3 s ahead): retryDueAt answers on the asking node's clock
        Instant failedAt = nodes.get(2).config().clock().instant();

        // n-even's release, which leaves the attempt pending, is sent after its run returns
        Instant due = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> nodes.get(2).retryDueAt(job), Optional::isPresent).orElseThrow();
        assertThat(Duration.between(failedAt, due)).isBetween(Duration.ofMillis(3_000), Duration.ofMillis(4_500));
        // the node whose clock is 3 s ahead finds it due by its own clock within a second; Redis does not
        nodes.get(2).runDueRetry(job, fleet.failingFirst(1, "n-ahead"));
        assertThat(fleet.attempts).hasSize(1);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            nodes.get(2).runDueRetry(job, fleet.failingFirst(1, "n-ahead"));
            return fleet.attempts.size() == 2;
        });
        assertThat(nodes.get(2).config().clock().instant()).isAfterOrEqualTo(due.minusMillis(50));
        assertThat(fleet.outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RAN);
    }

    @Test
    void theNextFireTimeSupersedesAPendingAttemptAndReportsIt() {
        String name = "superseded";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMinutes(5), 2, Duration.ofMinutes(5), 0));
        Instant t1 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant t2 = t1.plusSeconds(1);
        assertThat(fleet.fire(nodes.get(0), job, t1, fleet.failingFirst(1, "n-behind"))).isEqualTo(RunOutcome.RETRY_PENDING);
        assertThat(nodes.get(1).retryDueAt(job)).isPresent();

        assertThat(fleet.fire(nodes.get(1), job, t2, fleet.failingFirst(0, "n-even"))).isEqualTo(RunOutcome.RAN);

        assertThat(fleet.events).filteredOn(e -> e.outcome() == RunOutcome.RETRY_SUPERSEDED)
                .singleElement().satisfies(e -> {
                    assertThat(e.nominalFireTime()).isEqualTo(t1);
                    assertThat(e.nodeId()).isEqualTo("n-even");
                });
        assertThat(nodes.get(2).retryDueAt(job)).isEmpty();
        assertThat(fleet.history(name)).anySatisfy(e -> {
            assertThat(e.outcome()).isEqualTo("RETRY_SUPERSEDED");
            assertThat(e.nominalFireTime()).isEqualTo(t1);
        });
        nodes.get(2).runDueRetry(job, fleet.failingFirst(0, "n-ahead"));
        assertThat(fleet.attempts).hasSize(2);
    }

    @Test
    void aRunThatLostItsLeaseIsNotRetried() {
        String name = "lease-lost";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMillis(100), 1, Duration.ofMillis(100), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        RunOutcome outcome = fleet.fire(nodes.get(1), job, t, () -> {
            throw LeaseLostException.of(RunContext.current().orElseThrow(), "a fenced write was refused");
        });
        assertThat(outcome).isEqualTo(RunOutcome.FAILED);
        assertThat(nodes.get(1).retryDueAt(job)).isEmpty();
    }

    @Test
    void aFailureTheJobDoesNotRetryOnIsFinalAtOnce() {
        String name = "no-retry-on";
        JobOptions job = job(name, RetryPolicy.attempts(3).on(List.of(), List.of(IllegalStateException.class)));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fleet.fire(nodes.get(1), job, t, fleet.failingFirst(1, "n-even"))).isEqualTo(RunOutcome.FAILED);
        assertThat(nodes.get(1).retryDueAt(job)).isEmpty();
    }

    @Test
    void theLastAttemptsFailureIsRetriesExhausted() {
        String name = "exhausted";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofMillis(100), 1, Duration.ofMillis(100), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fleet.fire(nodes.get(1), job, t, fleet.failingFirst(5, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            nodes.get(0).runDueRetry(job, fleet.failingFirst(5, "n-behind"));
            return fleet.attempts.size() == 2;
        });
        assertThat(fleet.outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRIES_EXHAUSTED);
        assertThat(nodes.get(0).retryDueAt(job)).isEmpty();
        assertThat(fleet.history(name)).extracting(RunHistory.FireEntry::outcome).first().isEqualTo("RETRIES_EXHAUSTED");
    }

    @Test
    void aPausedJobsPendingAttemptWaitsForTheResume() {
        String name = "paused";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofMillis(200), 1, Duration.ofMillis(200), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fleet.fire(nodes.get(1), job, t, fleet.failingFirst(1, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);
        assertThat(nodes.get(1).pause(name, "test")).isTrue();
        Instant due = nodes.get(1).retryDueAt(job).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().isAfter(due.plusMillis(200)));

        assertThat(nodes.get(0).runDueRetry(job, fleet.failingFirst(1, "n-behind"))).isTrue();
        assertThat(fleet.attempts).hasSize(1);
        assertThat(nodes.get(0).retryDueAt(job)).as("still pending while paused").isPresent();
        assertThat(fleet.history(name)).noneMatch(e -> e.outcome().equals("PAUSED"));

        assertThat(nodes.get(1).resume(name)).isTrue();
        nodes.get(0).runDueRetry(job, fleet.failingFirst(1, "n-behind"));
        assertThat(fleet.attempts).hasSize(2);
        assertThat(fleet.outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RAN);
    }
}
