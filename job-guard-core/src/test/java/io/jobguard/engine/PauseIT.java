package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.OperatorControl;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real redis-server: a job paused through one node is skipped as PAUSED on
 * every node, by the acquire call itself (nothing is written for the fire time, so the same fire
 * time runs once resumed), and its flag records who paused it.
 */
@WithRedis
class PauseIT {

    private static final JobOptions JOB = JobOptions.builder("report", Duration.ofSeconds(10)).build();

    private final LettuceConnectionFactory connectionFactory;

    PauseIT(RedisServerProcess redis) {
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        connectionFactory.destroy();
    }

    private JobGuard node(String id) {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgpause");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .namespace("pause").build());
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    @Test
    void pauseOnOneNodeSkipsEveryNodeWithoutWritingAndResumeRunsTheSameFireTime() {
        JobGuard a = node("a");
        JobGuard b = node("b");
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        assertThat(a.pause("report", "alice")).isTrue();
        assertThat(b.pause("report", "bob")).as("already paused").isFalse();
        OperatorControl.Pause flag = b.paused("report").orElseThrow();
        assertThat(flag.node()).isEqualTo("a");
        assertThat(flag.by()).isEqualTo("alice");
        assertThat(flag.pausedAt()).isBetween(t.minusSeconds(5), Instant.now().plusSeconds(5));

        Set<String> before = keys();
        assertThat(b.run(JOB, t, () -> { throw new AssertionError("ran while paused"); })).isEqualTo(RunOutcome.PAUSED);
        Admission refused = a.admit(JOB, t);
        assertThat(refused.granted()).isFalse();
        assertThat(refused.refusal()).isEqualTo(RunOutcome.PAUSED);
        assertThat(keys()).as("a paused firing writes nothing for the fire time, only the one history note")
                .containsAll(before).hasSize(before.size() + 1).anyMatch(k -> k.endsWith(":history"));
        assertThat(((RunHistory) a.store()).fireHistory(new JobId("pause", "report"), 20))
                .as("both nodes refused t as PAUSED; it is listed once")
                .singleElement().satisfies(e -> {
                    assertThat(e.outcome()).isEqualTo("PAUSED");
                    assertThat(e.nominalFireTime()).isEqualTo(t);
                    assertThat(e.node()).isEqualTo("b");
                    assertThat(e.fencingToken()).isEqualTo(-1);
                });

        assertThat(b.resume("report")).isTrue();
        assertThat(a.resume("report")).as("not paused any more").isFalse();
        assertThat(a.paused("report")).isEmpty();
        assertThat(b.run(JOB, t, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(a.run(JOB, t, () -> { })).isEqualTo(RunOutcome.ALREADY_RAN);
    }

    private Set<String> keys() {
        try (RedisConnection c = connectionFactory.getConnection()) {
            Set<byte[]> raw = c.keyCommands().keys("*".getBytes(StandardCharsets.UTF_8));
            // the fleet's leads hash (written by each node every 500 ms, and before its first admission) is no job's
            return raw == null ? Set.of() : raw.stream().map(k -> new String(k, StandardCharsets.UTF_8))
                    .filter(k -> !k.equals(new KeySchema("jgpause").fleetLeads())).collect(Collectors.toSet());
        }
    }
}
