package io.jobguard.spring.shutdown;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * SIGTERM to a Boot node mid-run: the node releases its 60 s lease before its Redis connections close,
 * so another node runs the next fire time without waiting for the TTL. Once with Boot's default scheduler
 * shutdown (the run is given up and told), once with {@code await-termination} (the run finishes and releases).
 * {@code mvn verify} runs the first, the long suite ({@link LongSuite}) the second; the JDK 25 step of
 * {@code .ci/run} names the class and runs both.
 */
@WithRedis
class GracefulShutdownMultiJvmIT {

    private static final Duration STEP = Duration.ofSeconds(60);
    private static final JobOptions JOB = JobOptions.builder("handover", Duration.ofSeconds(60)).build();
    private static final JobId ID = new JobId("handover", "handover");

    private final RedisServerProcess redis;
    private LettuceConnectionFactory factory;
    private RedisLeaseStore store;
    private JobGuard other;

    GracefulShutdownMultiJvmIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void otherNode() {
        factory = redis.connectionFactory();
        store = RedisLeaseStore.create(factory);
        other = JobGuard.create(store, JobGuardConfig.builder().namespace("handover").node(NodeConfig.builder()
                .nodeId("other").build())
                .skewTolerance(Duration.ofSeconds(30)).build());
    }

    @AfterEach
    void close() {
        other.close();
        store.close();
        factory.destroy();
    }

    @Test
    void aRunStillGoingWhenTheSchedulerStopsWaitingIsToldAndItsLeaseReleased() throws Exception {
        try (ChildJvm node = startNode(redis.port(), 120_000, "--spring.lifecycle.timeout-per-shutdown-phase=2s")) {
            Instant t = Instant.ofEpochMilli(Long.parseLong(node.await("RUNNING", STEP).substring(8)));
            assertThat(store.currentRunLease(ID)).isPresent();
            long sigterm = System.nanoTime();
            node.signal("TERM");
            assertThat(node.waitForExit(STEP)).as(node.output()).isTrue();
            // Logged during shutdown, before the Redis connections close (the run's own last words may be cut off
            // by the JVM's exit, so the test reads the node's log instead).
            assertThat(node.output())
                    .contains("LEASE LOST (the node is shutting down and gives the lease up)")
                    .contains("still running at shutdown; lease given up (released=true)")
                    .doesNotContain("expires by TTL");
            // The 60 s lease is gone now, not at its TTL: the next fire time runs elsewhere.
            assertThat(store.currentRunLease(ID)).isEmpty();
            assertThat(other.run(JOB, t.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
            assertThat(Duration.ofNanos(System.nanoTime() - sigterm)).isLessThan(Duration.ofSeconds(50));
        }
    }

    @Test
    @LongSuite
    void withAwaitTerminationTheRunFinishesAndReleasesBeforeRedisCloses() throws Exception {
        try (ChildJvm node = startNode(redis.port(), 6_000, "--spring.task.scheduling.shutdown.await-termination=true",
                "--spring.task.scheduling.shutdown.await-termination-period=30s")) {
            Instant t = Instant.ofEpochMilli(Long.parseLong(node.await("RUNNING", STEP).substring(8)));
            node.signal("TERM");
            assertThat(node.await("ENDED", STEP)).isEqualTo("ENDED lost=false interrupted=false");
            assertThat(node.waitForExit(STEP)).as(node.output()).isTrue();
            assertThat(node.output()).doesNotContain("expires by TTL").doesNotContain("LEASE LOST");
            assertThat(store.currentRunLease(ID)).isEmpty();
            assertThat(other.run(JOB, t.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
        }
    }

    /** Starts {@link HandOverNodeApp} as node "terminated", its job's run lasting {@code runMillis}. */
    private static ChildJvm startNode(int redisPort, long runMillis, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort, "--jobguard.namespace=handover",
                "--jobguard.node-id=terminated", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                "--logging.level.io.jobguard=INFO"));
        args.addAll(List.of(extra));
        return ChildJvm.start("terminated",
                List.of("-XX:TieredStopAtLevel=1", "-Xmx256m", "-Dtest.run-millis=" + runMillis), HandOverNodeApp.class,
                args);
    }
}
