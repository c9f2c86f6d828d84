package io.jobguard.recovery;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.LeaseLostException;
import io.jobguard.NodeConfig;
import io.jobguard.RetryPolicy;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();
    /** Every attempt a body started, on any node: (node, attempt, token). */
    private final List<String> attempts = new CopyOnWriteArrayList<>();
    private final List<JobGuard> nodes = new ArrayList<>();
    private RedisLeaseStore reader;

    FailureRetryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        redis.flushAll();
        nodes.add(node("n-behind", -2_000));
        nodes.add(node("n-even", 0));
        nodes.add(node("n-ahead", 3_000));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    private JobGuard node(String id, long skewMillis) {
        LettuceConnectionFactory factory = redis.connectionFactory(Duration.ofSeconds(2));
        factories.add(factory);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgretry");
        reader = store;
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .skewTolerance(Duration.ofSeconds(5))
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(skewMillis))).build());
        guard.addListener(events::add);
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    private static JobOptions job(String name, RetryPolicy retry) {
        return JobOptions.builder(name, Duration.ofSeconds(10)).retry(retry).build();
    }

    /** A body that fails its first {@code failures} attempts, wherever they run, and records each attempt. */
    private Runnable failingFirst(int failures, String node) {
        return () -> {
            RunContext run = RunContext.current().orElseThrow();
            attempts.add(node + "|" + run.attempt() + "|" + run.fencingToken());
            if (run.attempt() <= failures) {
                throw new IllegalStateException("attempt " + run.attempt() + " fails on purpose");
            }
        };
    }

    /** A regular firing on {@code node}: its outcome (what the body throws is reported, then rethrown by run()). */
    private RunOutcome fire(JobGuard node, JobOptions job, Instant t, Runnable body) {
        try {
            return node.run(job, t, body);
        } catch (RuntimeException e) {
            List<RunOutcome> seen = outcomes(job.name());
            return seen.get(seen.size() - 1);
        }
    }

    private List<RunHistory.FireEntry> history(String job) {
        return reader.fireHistory(new JobId("default", job), 20);
    }

    private List<RunOutcome> outcomes(String job) {
        return events.stream().filter(e -> e.job().equals(job)).map(JobEvent::outcome).toList();
    }

    @Test
    void aFireTimeThatFailsTwiceRunsItsThirdAttemptOnceOnSomeNodeWithHigherTokens() throws Exception {
        String name = "fails-twice";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMillis(300), 2, Duration.ofSeconds(5), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fire(nodes.get(1), job, t, failingFirst(2, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);

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
                        failingFirst(2, id).run();
                        ran.countDown();
                    });
                }
            }));
        }
        try {
            assertThat(ran.await(20, TimeUnit.SECONDS)).as("the third attempt ran").isTrue();
            // a while longer: a second run of any attempt would show up here
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> attempts.size() == 3);
        } finally {
            done.set(true);
            for (Future<?> f : lookers) {
                f.get(10, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
        }

        assertThat(attempts).hasSize(3);
        assertThat(attempts.stream().map(a -> a.split("\\|")[1]).toList()).containsExactly("1", "2", "3");
        List<Long> tokens = attempts.stream().map(a -> Long.parseLong(a.split("\\|")[2])).toList();
        assertThat(tokens).isSortedAccordingTo(Comparator.naturalOrder()).doesNotHaveDuplicates();
        assertThat(outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRY_PENDING, RunOutcome.RAN);
        assertThat(events.stream().filter(e -> e.job().equals(name)).map(JobEvent::attempt).toList())
                .containsExactly(1, 2, 3);

        List<RunHistory.FireEntry> recorded = history(name);
        assertThat(recorded).extracting(RunHistory.FireEntry::attempt).containsExactly(3, 2, 1);
        assertThat(recorded).extracting(RunHistory.FireEntry::outcome)
                .containsExactly("RAN", "RETRY_PENDING", "RETRY_PENDING");
        assertThat(recorded).allSatisfy(e -> assertThat(e.nominalFireTime()).isEqualTo(t));
        assertThat(recorded).extracting(RunHistory.FireEntry::fencingToken)
                .containsExactly(tokens.get(2), tokens.get(1), tokens.get(0));
        for (int i = 0; i < 3; i++) {
            assertThat(recorded.get(2 - i).node()).contains(attempts.get(i).split("\\|")[0]);
        }
        assertThat(nodes.get(0).retryDueAt(job)).isEmpty();
    }

    @Test
    void anAttemptIsNotRunBeforeItsBackoffHasPassedByRedisClock() {
        String name = "not-due";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofSeconds(4), 1, Duration.ofSeconds(4), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fire(nodes.get(1), job, t, failingFirst(1, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);
        // on the clock of the node that asks (3 s ahead): retryDueAt answers on the asking node's clock
        Instant failedAt = nodes.get(2).config().clock().instant();

        // n-even's release, which leaves the attempt pending, is sent after its run returns
        Instant due = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> nodes.get(2).retryDueAt(job), Optional::isPresent).orElseThrow();
        assertThat(Duration.between(failedAt, due)).isBetween(Duration.ofMillis(3_000), Duration.ofMillis(4_500));
        // the node whose clock is 3 s ahead finds it due by its own clock within a second; Redis does not
        nodes.get(2).runDueRetry(job, failingFirst(1, "n-ahead"));
        assertThat(attempts).hasSize(1);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            nodes.get(2).runDueRetry(job, failingFirst(1, "n-ahead"));
            return attempts.size() == 2;
        });
        assertThat(nodes.get(2).config().clock().instant()).isAfterOrEqualTo(due.minusMillis(50));
        assertThat(outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RAN);
    }

    @Test
    void theNextFireTimeSupersedesAPendingAttemptAndReportsIt() {
        String name = "superseded";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMinutes(5), 2, Duration.ofMinutes(5), 0));
        Instant t1 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant t2 = t1.plusSeconds(1);
        assertThat(fire(nodes.get(0), job, t1, failingFirst(1, "n-behind"))).isEqualTo(RunOutcome.RETRY_PENDING);
        assertThat(nodes.get(1).retryDueAt(job)).isPresent();

        assertThat(fire(nodes.get(1), job, t2, failingFirst(0, "n-even"))).isEqualTo(RunOutcome.RAN);

        assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.RETRY_SUPERSEDED)
                .singleElement().satisfies(e -> {
                    assertThat(e.nominalFireTime()).isEqualTo(t1);
                    assertThat(e.nodeId()).isEqualTo("n-even");
                });
        assertThat(nodes.get(2).retryDueAt(job)).isEmpty();
        assertThat(history(name)).anySatisfy(e -> {
            assertThat(e.outcome()).isEqualTo("RETRY_SUPERSEDED");
            assertThat(e.nominalFireTime()).isEqualTo(t1);
        });
        nodes.get(2).runDueRetry(job, failingFirst(0, "n-ahead"));
        assertThat(attempts).hasSize(2);
    }

    @Test
    void aRunThatLostItsLeaseIsNotRetried() {
        String name = "lease-lost";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMillis(100), 1, Duration.ofMillis(100), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        RunOutcome outcome = fire(nodes.get(1), job, t, () -> {
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
        assertThat(fire(nodes.get(1), job, t, failingFirst(1, "n-even"))).isEqualTo(RunOutcome.FAILED);
        assertThat(nodes.get(1).retryDueAt(job)).isEmpty();
    }

    @Test
    void theLastAttemptsFailureIsRetriesExhausted() {
        String name = "exhausted";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofMillis(100), 1, Duration.ofMillis(100), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fire(nodes.get(1), job, t, failingFirst(5, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            nodes.get(0).runDueRetry(job, failingFirst(5, "n-behind"));
            return attempts.size() == 2;
        });
        assertThat(outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRIES_EXHAUSTED);
        assertThat(nodes.get(0).retryDueAt(job)).isEmpty();
        assertThat(history(name)).extracting(RunHistory.FireEntry::outcome).first().isEqualTo("RETRIES_EXHAUSTED");
    }

    @Test
    void aPausedJobsPendingAttemptWaitsForTheResume() {
        String name = "paused";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofMillis(200), 1, Duration.ofMillis(200), 0));
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThat(fire(nodes.get(1), job, t, failingFirst(1, "n-even"))).isEqualTo(RunOutcome.RETRY_PENDING);
        assertThat(nodes.get(1).pause(name, "test")).isTrue();
        Instant due = nodes.get(1).retryDueAt(job).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().isAfter(due.plusMillis(200)));

        assertThat(nodes.get(0).runDueRetry(job, failingFirst(1, "n-behind"))).isTrue();
        assertThat(attempts).hasSize(1);
        assertThat(nodes.get(0).retryDueAt(job)).as("still pending while paused").isPresent();
        assertThat(history(name)).noneMatch(e -> e.outcome().equals("PAUSED"));

        assertThat(nodes.get(1).resume(name)).isTrue();
        nodes.get(0).runDueRetry(job, failingFirst(1, "n-behind"));
        assertThat(attempts).hasSize(2);
        assertThat(outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RAN);
    }
}
