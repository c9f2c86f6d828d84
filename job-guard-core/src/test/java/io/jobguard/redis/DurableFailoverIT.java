package io.jobguard.redis;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.RedisServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Durable acquire through a real Sentinel failover that loses the last write: the replica is
 * stopped (SIGSTOP) and its link cut while node a takes fire time T1, then the primary is shut down and the replica,
 * resumed, is promoted without T1's marker. Node b then fires T1 on the new primary. Without durable
 * acquire T1 runs twice; with it, a's firing is refused because the replica never acknowledged it,
 * and T1 runs once.
 */
class DurableFailoverIT {

    private static final JobOptions JOB = JobOptions.builder("failover", Duration.ofSeconds(30)).build();

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    @Test
    void withoutDurableAcquireTheLostWriteLetsTheFireTimeRunTwice() {
        assertThat(runsOfT1AcrossALossyFailover(DurableAcquire.defaults())).isEqualTo(2);
    }

    @Test
    void withDurableAcquireTheFireTimeRunsOnce() {
        assertThat(runsOfT1AcrossALossyFailover(DurableAcquire.builder().replicas(1).timeout(Duration.ofMillis(500))
                .build())).isEqualTo(1);
    }

    private int runsOfT1AcrossALossyFailover(DurableAcquire durable) {
        RedisSentinelProcess sentinel = RedisSentinelProcess.start();
        closeables.add(sentinel);
        JobGuard a = node(sentinel, "a", durable);
        JobGuard b = node(sentinel, "b", durable);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant t1 = t0.plusSeconds(1);
        AtomicInteger runsOfT1 = new AtomicInteger();
        assertThat(a.run(JOB, t0, () -> { })).isEqualTo(RunOutcome.RAN);
        RedisServerProcess primary = sentinel.master();
        RedisServerProcess replica = sentinel.replica();
        assertThat((Long) primary.call("WAIT", "1", "5000")).isEqualTo(1L);

        // stop the replica and cut its link: a stopped process still receives what the primary sends
        replica.pause();
        primary.call("CLIENT", "KILL", "TYPE", "replica");
        RunOutcome onOldPrimary = a.run(JOB, t1, runsOfT1::incrementAndGet);
        assertThat(onOldPrimary).isEqualTo(durable.enabled() ? RunOutcome.STORE_ERROR : RunOutcome.RAN);
        primary.stop();
        replica.resume();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> sentinel.master() == replica
                && ((String) replica.call("INFO", "replication")).contains("role:master"));

        // the old primary returns (empty) and Sentinel makes it the new primary's replica, so that durable
        // acquire has a replica to wait for again
        primary.restart();
        // Sentinel reconfigures it too, but only after its own timers; telling it directly (what Sentinel
        // sends) keeps the test from waiting on them on a loaded machine
        primary.call("REPLICAOF", replica.host(), String.valueOf(replica.port()));
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                ((String) replica.call("INFO", "replication")).contains("state=online"));

        // b fires T1 late, on the promoted replica, which never received a's write
        RunOutcome[] onNewPrimary = {RunOutcome.STORE_ERROR};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            onNewPrimary[0] = b.run(JOB, t1, runsOfT1::incrementAndGet);
            return onNewPrimary[0] != RunOutcome.STORE_ERROR;
        });
        assertThat(onNewPrimary[0]).as("b's firing of T1 on the new primary; its keys: %s",
                replica.call("KEYS", "*")).isIn(RunOutcome.RAN, RunOutcome.ALREADY_RAN);
        return runsOfT1.get();
    }

    private JobGuard node(RedisSentinelProcess sentinel, String id, DurableAcquire durable) {
        LettuceConnectionFactory factory = sentinel.connectionFactory();
        closeables.add(factory::destroy);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgtest", durable);
        closeables.add(store);
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .skewTolerance(Duration.ofSeconds(2))
                .build());
        closeables.add(guard);
        return guard;
    }
}
