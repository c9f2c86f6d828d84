package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunHistory.FireEntry;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On a real redis-server: each fire time in a job's recent fire times carries the
 * node, the outcome, the run's duration and the fencing token; the outcome is written by the release
 * itself, and a fire time decided without a run is kept once however many nodes report it.
 */
@WithRedis
class FireOutcomesIT {

    private static final JobOptions JOB = JobOptions.builder("ledger", Duration.ofSeconds(10)).build();
    private static final long WORK_MILLIS = 60;

    private final LettuceConnectionFactory connectionFactory;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    FireOutcomesIT(RedisServerProcess redis) {
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        connectionFactory.destroy();
    }

    private JobGuard node(String id) {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgoutcomes");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .namespace("outcomes").build());
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    private static List<FireEntry> history(JobGuard guard) {
        return ((RunHistory) guard.store()).fireHistory(new JobId("outcomes", JOB.name()), 20);
    }

    /** Work that takes at least {@link #WORK_MILLIS} of wall time, so the recorded duration has a floor. */
    private static void work() {
        long until = System.nanoTime() + Duration.ofMillis(WORK_MILLIS).toNanos();
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Test
    void eachRunIsListedWithNodeOutcomeDurationAndTokenWhileOthersRefusalsAddNothing() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t1 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant t2 = t1.plusSeconds(1);

        long before = System.nanoTime();
        assertThat(a.run(JOB, t1, FireOutcomesIT::work)).isEqualTo(RunOutcome.RAN);
        Duration outside = Duration.ofNanos(System.nanoTime() - before);
        assertThat(b.run(JOB, t1, () -> { throw new AssertionError("ran twice"); })).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThatThrownBy(() -> b.run(JOB, t2, () -> { throw new IllegalStateException("boom"); }))
                .hasMessage("boom");

        List<FireEntry> history = history(a);
        assertThat(history).extracting(FireEntry::nominalFireTime).containsExactly(t2, t1);
        FireEntry failed = history.get(0);
        assertThat(failed.outcome()).isEqualTo("FAILED");
        assertThat(failed.node()).isEqualTo("b");
        FireEntry ran = history.get(1);
        assertThat(ran.outcome()).isEqualTo("RAN");
        assertThat(ran.node()).isEqualTo("a");
        assertThat(ran.duration()).isBetween(Duration.ofMillis(WORK_MILLIS), outside);
        assertThat(failed.fencingToken()).isGreaterThan(ran.fencingToken());
        assertThat(a.recentFires(JOB.name())).as("the lease view of the same entries is unchanged")
                .extracting(LeaseRecord::nominalFireTime, LeaseRecord::fencingToken, LeaseRecord::foreign)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(t2, failed.fencingToken(), false),
                        org.assertj.core.groups.Tuple.tuple(t1, ran.fencingToken(), false));
    }

    @Test
    void aRunStillHoldingItsLeaseIsListedAsStartedUntilItsReleaseWritesTheOutcome() {
        JobGuard a = node("a");
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Admission admission = a.admit(JOB, t);
        assertThat(admission.granted()).isTrue();
        try (FiringPermit permit = admission.permit()) {
            assertThat(history(a)).singleElement().satisfies(e -> {
                assertThat(e.outcome()).isEqualTo("STARTED");
                assertThat(e.duration()).isNull();
                assertThat(e.fencingToken()).isEqualTo(permit.context().fencingToken());
            });
            permit.finish(null);
        }
        assertThat(history(a)).singleElement().satisfies(e -> {
            assertThat(e.outcome()).isEqualTo("RAN");
            assertThat(e.duration()).isNotNull();
        });
    }

    @Test
    void aDecisionReportedByEveryNodeIsKeptOnceAndTheListStaysBounded() {
        JobGuard a = node("a");
        RedisLeaseStore store = (RedisLeaseStore) a.store();
        JobId job = new JobId("outcomes", JOB.name());
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        store.recordOutcome(job, t, "a", "MISSED", 3);
        store.recordOutcome(job, t, "b", "MISSED", 3);
        assertThat(store.fireHistory(job, 20)).singleElement().satisfies(e -> {
            assertThat(e.outcome()).isEqualTo("MISSED");
            assertThat(e.node()).isEqualTo("a");
            assertThat(e.at()).isBetween(t.minusSeconds(5), Instant.now().plusSeconds(5));
        });
        for (int i = 1; i <= 5; i++) {
            store.recordOutcome(job, t.plusSeconds(i), "a", "MISSED", 3);
        }
        assertThat(store.fireHistory(job, 20)).extracting(FireEntry::nominalFireTime)
                .containsExactly(t.plusSeconds(5), t.plusSeconds(4), t.plusSeconds(3));
        assertThat(a.recentFires(JOB.name())).as("no run lease among the entries").isEmpty();
    }
}
