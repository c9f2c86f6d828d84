package io.jobguard.misuse;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redis does not roll a script back when a command in it fails, so each
 * script checks the keys it writes before its first write. A key of the wrong type where job-guard
 * keeps a hash or sorted set, or a fencing counter that would hand out a token that is not
 * positive, fails the call with an error naming the key, and nothing is written: no orphan lease
 * that blocks the job, no token -1 (the value that means "unguarded").
 */
@WithRedis
class FailingScriptsWriteNothingIT {

    private static final Instant T = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final String JOB_BASE = "jgfail:{shop:job}";
    private static final String BATCH_BASE = "jgfail:{sku~batch}";

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();
    private RedisLeaseStore store;
    private JobGuard guard;
    private RedisBatchLocks locks;

    FailingScriptsWriteNothingIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
    }

    @BeforeEach
    void open() {
        redis.flushAll();
        store = RedisLeaseStore.create(connectionFactory, "jgfail");
        guard = JobGuard.create(store, JobGuardConfig.builder().namespace("shop").node(NodeConfig.builder()
                .nodeId("n1").build()).build());
        guard.addListener(new JobGuardListener() {
            @Override
            public void onJobEvent(JobEvent event) {
                events.add(event);
            }
        });
        locks = RedisBatchLocks.create(connectionFactory, "jgfail", BatchLockConfig.builder().node(NodeConfig.builder()
                .nodeId("n1").build()).build());
    }

    @AfterEach
    void close() {
        locks.close();
        guard.close();
        store.close();
        connectionFactory.destroy();
    }

    @Test
    void aForeignStateKeyFailsTheAcquisitionBeforeAnyWrite() {
        redis.call("SET", JOB_BASE + ":state-v2", "not a hash");

        assertThat(guard.run(JobOptions.builder("job", LEASE).build(), T, () -> { })).isEqualTo(RunOutcome.STORE_ERROR);

        assertThat(redis.call("EXISTS", JOB_BASE + ":run", JOB_BASE + ":fired:" + T.toEpochMilli()))
                .as("no lease or marker was written").isEqualTo(0L);
        assertThat(redis.call("GET", JOB_BASE + ":state-v2")).isEqualTo("not a hash");
        assertThat(causeMessages(events.get(0).failure()))
                .contains("key " + JOB_BASE + ":state-v2 holds a string where job-guard keeps a hash");
    }

    @Test
    void aForeignHistoryKeyIsLeftAloneAndTheRunStillRunsAndReleases() {
        redis.call("HSET", JOB_BASE + ":history", "foreign", "value");

        // the history is written by the release alone: a key of another type there costs the run's entry, not the run
        assertThat(guard.run(JobOptions.builder("job", LEASE).build(), T, () -> { })).isEqualTo(RunOutcome.RAN);

        await("the lease is released").atMost(Duration.ofSeconds(10))
                .until(() -> Long.valueOf(0).equals(redis.call("EXISTS", JOB_BASE + ":run")));
        assertThat(redis.call("HGETALL", JOB_BASE + ":history")).as("the foreign key is unchanged")
                .isEqualTo(List.of("foreign", "value"));
        assertThat(redis.call("HGET", JOB_BASE + ":state-v2", "c")).as("the completion was recorded")
                .isEqualTo(Long.toString(T.toEpochMilli()));
    }

    @Test
    void aNegativeFencingCounterNeverHandsOutATokenThatIsNotPositive() {
        redis.call("HSET", JOB_BASE + ":state-v2", "f", "-2");

        assertThat(guard.run(JobOptions.builder("job", LEASE).build(), T, () -> { })).isEqualTo(RunOutcome.STORE_ERROR);

        assertThat(redis.call("HGET", JOB_BASE + ":state-v2", "f")).isEqualTo("-2");
        assertThat(redis.call("EXISTS", JOB_BASE + ":run", JOB_BASE + ":fired:" + T.toEpochMilli())).isEqualTo(0L);
        assertThat(causeMessages(events.get(0).failure()))
                .contains("fencing counter " + JOB_BASE + ":state-v2 field f holds \"-2\"");

        redis.call("HDEL", JOB_BASE + ":state-v2", "f");
        events.clear();
        assertThat(guard.run(JobOptions.builder("job", LEASE).build(), T, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(events.get(0).fencingToken()).as("tokens are positive (Redis TIME floor)").isPositive();
    }

    @Test
    void aForeignBatchIndexOrCounterFailsTheBatchBeforeAnyWrite() {
        redis.call("SET", BATCH_BASE + ":leases", "foreign");
        assertThatThrownBy(() -> locks.tryAcquire("sku", List.of("a", "b"), LEASE))
                .isInstanceOf(LeaseStoreException.class)
                .satisfies(e -> assertThat(causeMessages(e))
                        .contains("key " + BATCH_BASE + ":leases holds a string where job-guard keeps a zset"));
        assertThat(redis.call("EXISTS", BATCH_BASE + ":held", BATCH_BASE + ":fence")).isEqualTo(0L);

        redis.call("DEL", BATCH_BASE + ":leases");
        redis.call("SET", BATCH_BASE + ":fence", "-2");
        assertThatThrownBy(() -> locks.tryAcquire("sku", List.of("a", "b"), LEASE))
                .isInstanceOf(LeaseStoreException.class)
                .satisfies(e -> assertThat(causeMessages(e)).contains("fencing counter " + BATCH_BASE + ":fence"));
        assertThat(redis.call("EXISTS", BATCH_BASE + ":held", BATCH_BASE + ":leases")).isEqualTo(0L);
        assertThat(redis.call("GET", BATCH_BASE + ":fence")).isEqualTo("-2");
    }

    @Test
    void aForeignBatchIndexFailsTheReleaseBeforeAnyWrite() {
        BatchLease lease = locks.tryAcquire("sku", List.of("a", "b"), LEASE).orElseThrow();
        redis.call("DEL", BATCH_BASE + ":leases");
        redis.call("SET", BATCH_BASE + ":leases", "foreign");

        lease.close(); // logs the failure at WARN: the keys expire with their lease

        assertThat(redis.call("HGET", BATCH_BASE + ":held", "a")).as("the keys were not half released")
                .isNotNull();
        assertThat((List<?>) redis.call("KEYS", BATCH_BASE + ":lease:*")).as("the record still holds them").hasSize(1);
    }

    private static String causeMessages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.append(t.getMessage()).append(" | ");
        }
        return out.toString();
    }
}
