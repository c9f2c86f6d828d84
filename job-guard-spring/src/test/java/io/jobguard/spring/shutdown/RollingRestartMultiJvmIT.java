package io.jobguard.spring.shutdown;

import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A graceful shutdown leaves no lease for the next node to wait out, on job-guard's default settings: a job due
 * every two seconds with a 10-minute lease. A fire time that comes while the node's context closes, after job-guard
 * handed its leases over, is refused on that node without asking Redis, so no run holds a lease that the stopped
 * connection factory could no longer release; the other nodes run it. The nodes' own ledgers, not job-guard's
 * records, judge the outcome ({@link Ledgers}). {@code mvn verify} runs the single shutdown held open between the
 * hand-over and the factory's stop and a rolling restart of three node JVMs on Boot's default scheduler shutdown
 * (about 10 s and 40 s); the long suite ({@link LongSuite}) the rolling restart with {@code await-termination}.
 */
@WithRedis
class RollingRestartMultiJvmIT {

    private static final long PERIOD = 2_000;
    private static final Duration UP = Duration.ofSeconds(90);
    private static final JobId ID = new JobId("rolling", "rolling");

    private final RedisServerProcess redis;
    private LettuceConnectionFactory factory;
    private RedisLeaseStore store;
    private final List<ChildJvm> nodes = new ArrayList<>();

    @TempDir
    Path dir;

    RollingRestartMultiJvmIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void store() {
        factory = redis.connectionFactory();
        store = RedisLeaseStore.create(factory);
    }

    @AfterEach
    void close() {
        nodes.forEach(ChildJvm::close);
        store.close();
        factory.destroy();
    }

    @Test
    void aFireTimeWhileTheContextClosesTakesNoLeaseThatTheStoppedFactoryCouldNotRelease() throws Exception {
        // With await-termination the scheduler goes on firing until the context destroys it, after the connection
        // factory stopped. The node's stop is held for 5 s in phase 1, after job-guard's hand-over (phase 2) and
        // before Lettuce's factory stops (phase 0): a fire time of the 2 s schedule falls inside, and a run started
        // then would last 8 s, past the factory's stop (without the closed admission: "could not release its lease
        // (... LettuceConnectionFactory has been STOPPED ...); it expires by TTL", and the lease stayed 10 minutes).
        Path ledger = dir.resolve("n1.ledger");
        ChildJvm node = start("n1", ledger, List.of("-Dtest.slow-stop-millis=5000", "-Dtest.closing-run-millis=8000"),
                "--spring.task.scheduling.shutdown.await-termination=true",
                "--spring.task.scheduling.shutdown.await-termination-period=30s");
        node.await("STARTED", UP);
        node.await("RUNNING", UP);
        node.signal("TERM");
        node.await("SLOW-STOP", UP);
        assertThat(node.waitForExit(UP)).as(node.output()).isTrue();

        assertThat(node.output()).contains("the node is shutting down (its leases were handed over)");
        assertThat(store.currentRunLease(ID)).as(node.output()).isEmpty();
        assertThat(node.output()).doesNotContain("expires by TTL").doesNotContain("STOPPING");
        // every run the node started ended before it exited (none was cut off holding a lease)
        assertThat(Ledgers.read(List.of(ledger)).byFireTime().values()).allSatisfy(runs -> assertThat(runs).hasSize(1));
    }

    @Test
    void aRollingRestartOfThreeNodesRunsEveryFireTimeOnceAndOnTime() throws Exception {
        rollingRestart(List.of());
    }

    /**
     * With await-termination the scheduler fires on while the context closes; each node's stop is held 3 s between
     * job-guard's hand-over and the factory's stop, so a fire time falls there at every restart, and a run started
     * then would outlast the factory (4 s): without the closed admission its lease stayed and the other nodes were
     * refused {@code BUSY} for the rest of the test.
     */
    @Test
    @LongSuite
    void aRollingRestartWithAwaitTerminationRunsEveryFireTimeOnceAndOnTime() throws Exception {
        rollingRestart(List.of("-Dtest.slow-stop-millis=3000", "-Dtest.closing-run-millis=4000"),
                "--spring.task.scheduling.shutdown.await-termination=true",
                "--spring.task.scheduling.shutdown.await-termination-period=30s");
    }

    /** SIGTERM each of three nodes in turn, at a random point of the schedule, and start it again. */
    private void rollingRestart(List<String> systemProperties, String... args) throws Exception {
        List<Path> ledgers = List.of(dir.resolve("n1.ledger"), dir.resolve("n2.ledger"), dir.resolve("n3.ledger"));
        List<ChildJvm> up = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            up.add(start("n" + (i + 1), ledgers.get(i), systemProperties, args));
        }
        for (ChildJvm node : up) {
            node.await("STARTED", UP);
        }
        long from = nextFireTime(System.currentTimeMillis());
        for (int i = 0; i < 3; i++) {
            ChildJvm old = up.get(i);
            // the fleet runs the job again (on whichever node it is assigned to: the fleet spread), then SIGTERM lands
            // at a random point of the schedule: inside a run of this node or another's, or between runs
            long mark = System.currentTimeMillis();
            await().atMost(UP).until(() -> Ledgers.read(ledgers).byFireTime().keySet().stream().anyMatch(t -> t >= mark));
            Thread.sleep((long) (Math.random() * PERIOD));
            old.signal("TERM");
            assertThat(old.waitForExit(UP)).as(old.output()).isTrue();
            assertThat(old.output()).doesNotContain("expires by TTL");
            ChildJvm fresh = start(old.name(), ledgers.get(i), systemProperties, args);
            fresh.await("STARTED", UP);
            up.set(i, fresh);
        }
        // three more fire times with every node up again
        long to = nextFireTime(System.currentTimeMillis()) + 2 * PERIOD;
        await().atMost(UP).until(() -> Ledgers.read(ledgers).byFireTime().containsKey(to));
        for (ChildJvm node : up) {
            node.signal("TERM");
        }
        for (ChildJvm node : up) {
            assertThat(node.waitForExit(UP)).as(node.output()).isTrue();
        }

        Ledgers runs = Ledgers.read(ledgers);
        System.out.printf("[measure] rolling restart %s: fire times %d..%d (%d), latest start %d ms after its fire time%n",
                List.of(args), from, to, (to - from) / PERIOD + 1, runs.maxLateMillis(from, to));
        assertThat(runs.problems(from, to, PERIOD, 5_000)).as(runs.byFireTime().toString()).isEmpty();
        assertThat(store.currentRunLease(ID)).isEmpty();
    }

    /**
     * Starts {@link RollingNodeApp} as node {@code name} on job-guard's default settings, appending to {@code ledger}.
     *
     * @param systemProperties {@code -D} options for {@link RollingNodeApp} ({@code test.run-millis}, ...)
     * @param args             further Spring arguments
     */
    private ChildJvm start(String name, Path ledger, List<String> systemProperties, String... args) throws IOException {
        List<String> jvmOptions = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx192m",
                "-Dtest.ledger=" + ledger, "-Dtest.node=" + name));
        jvmOptions.addAll(systemProperties);
        List<String> springArgs = new ArrayList<>(List.of("--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redis.port(), "--jobguard.namespace=rolling", "--jobguard.node-id=" + name,
                "--spring.main.banner-mode=off", "--spring.main.web-application-type=none", "--logging.level.root=WARN",
                "--logging.level.io.jobguard=INFO"));
        springArgs.addAll(List.of(args));
        ChildJvm node = ChildJvm.start(name, jvmOptions, RollingNodeApp.class, springArgs);
        nodes.add(node);
        return node;
    }

    private static long nextFireTime(long millis) {
        return (millis / PERIOD + 1) * PERIOD;
    }
}
