package io.jobguard.recovery;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.RetryPolicy;
import io.jobguard.RunOutcome;
import io.jobguard.memory.InMemoryLeaseStore;
import io.jobguard.store.RetryByHand;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunRecord;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.jobguard.recovery.RetryNodes.job;
import static io.jobguard.recovery.RetryNodes.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An operator's retry of a fire time that failed for good ({@link JobGuard#retryByHand}) against a real Redis, with two
 * engines on their own connections: the store leaves attempt a+1 pending, due at once, only for the job's latest
 * started fire time whose run completed and failed, while no attempt is pending, no run holds the lease and the job
 * is not paused (else it names why and writes nothing); any node's {@link JobGuard#runDueRetry} then runs that attempt
 * once, with a fencing token above the failed attempt's, and the history shows the failure, the RETRY_BY_HAND note and
 * the new attempt.
 */
@WithRedis
class RetryByHandIT {

    private final RedisServerProcess redis;
    private RetryNodes fleet;
    private JobGuard nodeA;
    private JobGuard nodeB;

    RetryByHandIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        redis.flushAll();
        fleet = new RetryNodes(redis, "jgbyhand");
        nodeA = fleet.node("n-a", c -> c);
        nodeB = fleet.node("n-b", c -> c);
    }

    @AfterEach
    void close() throws Exception {
        fleet.close();
    }

    private static Instant aSecond() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    @Test
    void aFailedFireTimeRetriedByHandRunsItsNextAttemptOnceOnAnyNodeWithAHigherToken() {
        String name = "no-retries";
        JobOptions job = job(name, RetryPolicy.NONE);
        Instant t = aSecond();
        assertThat(fleet.fire(nodeA, job, t, fleet.failingFirst(1, "n-a"))).isEqualTo(RunOutcome.FAILED);
        assertThat(fleet.record(name).retry()).as("no retry policy: nothing pending").isNull();

        Instant asked = fleet.reader().serverTime();
        RetryByHand answer = nodeA.retryByHand(name, t, "alice");
        assertThat(answer).isEqualTo(new RetryByHand(RetryByHand.Status.SCHEDULED, 2));
        RunRecord.PendingRetry pending = fleet.record(name).retry();
        assertThat(pending.fireTime()).isEqualTo(t);
        assertThat(pending.failedAttempt()).isEqualTo(1);
        assertThat(pending.due()).as("due at once, by Redis' clock").isBetween(asked, fleet.reader().serverTime());
        assertThat(fleet.history(name).get(0)).satisfies(note -> {
            assertThat(note.outcome()).isEqualTo("RETRY_BY_HAND");
            assertThat(note.nominalFireTime()).isEqualTo(t);
            assertThat(note.node()).isEqualTo("n-a");
            assertThat(note.fencingToken()).isEqualTo(-1);
        });
        assertThat(nodeA.retryByHand(name, t, "alice").status()).as("asked twice: the attempt is pending")
                .isEqualTo(RetryByHand.Status.PENDING);

        // the other node's pass runs it: the attempt is the cluster's, not the asking node's
        assertThat(nodeB.runDueRetry(job, fleet.failingFirst(1, "n-b"))).isTrue();
        assertThat(nodeA.runDueRetry(job, fleet.failingFirst(1, "n-a"))).isTrue();
        assertThat(nodeB.runDueRetry(job, fleet.failingFirst(1, "n-b"))).isTrue();
        assertThat(fleet.attempts).hasSize(2);
        assertThat(fleet.attempts.get(1)).startsWith("n-b|2|");
        assertThat(token(fleet.attempts.get(1))).isGreaterThan(token(fleet.attempts.get(0)));
        assertThat(fleet.outcomes(name)).containsExactly(RunOutcome.FAILED, RunOutcome.RAN);
        assertThat(fleet.record(name).retry()).isNull();

        List<RunHistory.FireEntry> recorded = fleet.history(name);
        assertThat(recorded).extracting(RunHistory.FireEntry::outcome).containsExactly("RAN", "RETRY_BY_HAND", "FAILED");
        assertThat(recorded).extracting(RunHistory.FireEntry::attempt).containsExactly(2, 1, 1);
        assertThat(recorded).allSatisfy(e -> assertThat(e.nominalFireTime()).isEqualTo(t));
        assertThat(recorded.get(0).fencingToken()).isEqualTo(token(fleet.attempts.get(1)));
        assertThat(recorded.get(2).fencingToken()).isEqualTo(token(fleet.attempts.get(0)));

        assertThat(nodeB.retryByHand(name, t, "bob").status()).as("its newest outcome is RAN")
                .isEqualTo(RetryByHand.Status.NOT_FAILED);
    }

    @Test
    void exhaustedRetriesAreRetriedByHandUnderThePolicyAndMayBeRetriedAgain() {
        String name = "exhausted";
        JobOptions job = job(name, RetryPolicy.attempts(2).withBackoff(Duration.ofMillis(100), 1, Duration.ofMillis(100), 0));
        Instant t = aSecond();
        assertThat(fleet.fire(nodeA, job, t, fleet.failingFirst(9, "n-a"))).isEqualTo(RunOutcome.RETRY_PENDING);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            nodeB.runDueRetry(job, fleet.failingFirst(9, "n-b"));
            return fleet.attempts.size() == 2;
        });
        assertThat(fleet.outcomes(name)).containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRIES_EXHAUSTED);

        assertThat(nodeB.retryByHand(name, t, "alice")).isEqualTo(new RetryByHand(RetryByHand.Status.SCHEDULED, 3));
        assertThat(nodeA.runDueRetry(job, fleet.failingFirst(9, "n-a"))).isTrue();
        assertThat(fleet.attempts).hasSize(3);
        assertThat(fleet.attempts.get(2)).startsWith("n-a|3|");
        assertThat(fleet.outcomes(name)).as("past the policy's fleet.attempts, a failure is final at once")
                .containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRIES_EXHAUSTED, RunOutcome.RETRIES_EXHAUSTED);
        assertThat(fleet.record(name).retry()).isNull();

        assertThat(nodeA.retryByHand(name, t, "alice")).as("the newest outcome failed again")
                .isEqualTo(new RetryByHand(RetryByHand.Status.SCHEDULED, 4));
        assertThat(nodeB.runDueRetry(job, fleet.failingFirst(3, "n-b"))).isTrue();
        assertThat(fleet.attempts).hasSize(4);
        assertThat(fleet.attempts.stream().map(a -> a.split("\\|")[1]).toList()).containsExactly("1", "2", "3", "4");
        assertThat(fleet.attempts.stream().map(RetryNodes::token).toList()).isSorted().doesNotHaveDuplicates();
        assertThat(fleet.history(name)).extracting(e -> e.attempt() + " " + e.outcome()).containsExactly("4 RAN",
                "1 RETRY_BY_HAND", "3 RETRIES_EXHAUSTED", "1 RETRY_BY_HAND", "2 RETRIES_EXHAUSTED", "1 RETRY_PENDING");
    }

    @Test
    void refusalsNameWhyAndWriteNothing() throws Exception {
        String name = "refused";
        JobOptions job = job(name, RetryPolicy.NONE);
        Instant t1 = aSecond().minusSeconds(30);
        assertThat(nodeA.retryByHand(name, t1, "alice").status()).as("no fire time started")
                .isEqualTo(RetryByHand.Status.UNKNOWN);

        assertThat(fleet.fire(nodeA, job, t1, fleet.failingFirst(1, "n-a"))).isEqualTo(RunOutcome.FAILED);
        Instant t2 = t1.plusSeconds(10);
        assertThat(fleet.fire(nodeB, job, t2, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(nodeA.retryByHand(name, t1, "alice").status()).as("a later fire time started")
                .isEqualTo(RetryByHand.Status.NOT_LATEST);
        // n-b's release is sent after its run returns: BUSY until it lands
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(nodeA.retryByHand(name, t2, "alice")
                .status()).as("it ran").isEqualTo(RetryByHand.Status.NOT_FAILED));
        assertThat(nodeA.retryByHand(name, t2.plusSeconds(1), "alice").status()).as("never started")
                .isEqualTo(RetryByHand.Status.NOT_LATEST);

        Instant t3 = t2.plusSeconds(10);
        assertThat(fleet.fire(nodeA, job, t3, fleet.failingFirst(1, "n-a"))).isEqualTo(RunOutcome.FAILED);
        List<RunHistory.FireEntry> before = fleet.history(name);

        assertThat(nodeB.pause(name, "carol")).isTrue();
        assertThat(nodeA.retryByHand(name, t3, "alice").status()).isEqualTo(RetryByHand.Status.PAUSED);
        assertThat(nodeB.resume(name)).isTrue();

        // a run of an earlier fire time (a lagging node's) holds the lease; t3 stays the latest started
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<RunOutcome> lagging = CompletableFuture.supplyAsync(() -> nodeB.run(job, t1.minusSeconds(10), () -> {
            holding.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        try {
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(nodeA.retryByHand(name, t3, "alice").status()).isEqualTo(RetryByHand.Status.BUSY);
        } finally {
            release.countDown();
        }
        assertThat(lagging.get(20, TimeUnit.SECONDS)).isEqualTo(RunOutcome.RAN);

        assertThat(fleet.record(name).retry()).as("no refusal left an attempt pending").isNull();
        assertThat(fleet.history(name)).as("nor a note: only the lagging run's entry is new")
                .hasSize(before.size() + 1).first().satisfies(e -> assertThat(e.nominalFireTime()).isEqualTo(t1.minusSeconds(10)));
        assertThat(nodeA.retryByHand(name, t3, "alice")).as("every obstacle gone")
                .isEqualTo(new RetryByHand(RetryByHand.Status.SCHEDULED, 2));
    }

    @Test
    void aPendingRetryIsNotReplacedByHand() {
        String name = "pending";
        JobOptions job = job(name, RetryPolicy.attempts(3).withBackoff(Duration.ofMinutes(5), 1, Duration.ofMinutes(5), 0));
        Instant t = aSecond();
        assertThat(fleet.fire(nodeA, job, t, fleet.failingFirst(1, "n-a"))).isEqualTo(RunOutcome.RETRY_PENDING);
        RunRecord.PendingRetry pending = fleet.record(name).retry();
        assertThat(nodeB.retryByHand(name, t, "alice").status()).isEqualTo(RetryByHand.Status.PENDING);
        assertThat(fleet.record(name).retry()).as("its due time unchanged").isEqualTo(pending);
    }

    @Test
    void aStoreThatCannotRetryByHandSaysSo() {
        try (JobGuard memory = JobGuard.create(InMemoryLeaseStore.create(), JobGuardConfig.defaults())) {
            assertThatThrownBy(() -> memory.retryByHand("any", Instant.now(), "alice"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("InMemoryLeaseStore")
                    .hasMessageContaining("cannot retry a failed fire time by hand");
        }
    }
}
