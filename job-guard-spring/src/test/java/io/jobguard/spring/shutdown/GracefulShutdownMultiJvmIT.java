package io.jobguard.spring.shutdown;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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
        try (Node node = Node.start(redis.port(), 120_000, "--spring.lifecycle.timeout-per-shutdown-phase=2s")) {
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
        try (Node node = Node.start(redis.port(), 6_000, "--spring.task.scheduling.shutdown.await-termination=true",
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

    /** The Boot node's JVM. */
    private static final class Node implements AutoCloseable {
        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> all = new CopyOnWriteArrayList<>();

        private Node(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        all.add(line);
                        if (line.startsWith("NODE ")) {
                            lines.add(line.substring(5));
                        }
                    }
                } catch (IOException e) {
                    all.add("(output ended: " + e + ")");
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        static Node start(int redisPort, long runMillis, String... extra) throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-Xmx256m", "-Dtest.run-millis=" + runMillis,
                    "-cp", System.getProperty("java.class.path"), HandOverNodeApp.class.getName(),
                    "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisPort,
                    "--jobguard.namespace=handover", "--jobguard.node-id=terminated",
                    "--spring.main.banner-mode=off", "--logging.level.root=WARN", "--logging.level.io.jobguard=INFO"));
            command.addAll(List.of(extra));
            return new Node(new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        String await(String prefix, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    throw new AssertionError("no '" + prefix + "' within " + timeout + "; output:\n" + output());
                }
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }

        void signal(String signal) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
        }

        boolean waitForExit(Duration timeout) throws InterruptedException {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        String output() {
            return String.join("\n", all);
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
