package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Delivery of runs that died, with a real death: a node in its own JVM takes fire time t1
 * and is killed with SIGKILL mid-run; two nodes with their own connections and skewed clocks fire
 * t2 at once after its lease expired. With AT_LEAST_ONCE t1 runs again exactly once, attempt 2, with
 * a higher fencing token; with AT_MOST_ONCE it does not run again and is reported ABANDONED once.
 */
@WithRedis
class DiedRunIT {

    private static final Duration LEASE = Duration.ofSeconds(2);

    private final RedisServerProcess redis;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();
    private final List<RunContext> runs = new CopyOnWriteArrayList<>();
    private Process child;

    DiedRunIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws Exception {
        if (child != null) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (AutoCloseable c : closeables) {
            c.close();
        }
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    private MissedFireTimeRecovery node(String id, long skewMillis) {
        LettuceConnectionFactory factory = redis.connectionFactory(Duration.ofSeconds(2));
        factories.add(factory);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgtest");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .skewTolerance(Duration.ofSeconds(2))
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(skewMillis))).build());
        guard.addListener(events::add);
        closeables.add(guard);
        closeables.add(store);
        return ((JobGuardEngine) guard).missedFireTimeRecovery();
    }

    /** Starts the dying node on t1, waits until it runs, kills it (SIGKILL); returns its token. */
    private long killedMidRun(String job, Instant t1, Delivery delivery) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), DyingNode.class.getName(),
                Integer.toString(redis.port()), job, Long.toString(LEASE.toMillis()), Long.toString(t1.toEpochMilli()),
                delivery.name()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("RUNNING ") && !line.startsWith("REFUSED ")) {
            // the child's log lines
        }
        assertThat(line).as("the dying node's report").startsWith("RUNNING ");
        long token = Long.parseLong(line.substring("RUNNING ".length()).trim());
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return token;
    }

    private RunOutcome fire(MissedFireTimeRecovery node, JobOptions job, RecoveryOptions recovery, Instant t) {
        Runnable body = () -> runs.add(RunContext.current().orElseThrow());
        Admission admission = node.admit(job, recovery, t, body);
        if (!admission.granted()) {
            return admission.refusal();
        }
        try (FiringPermit permit = admission.permit()) {
            body.run();
            return permit.finish(null);
        }
    }

    /** b and c fire t2 at the same moment, once t1's lease has expired. */
    private List<RunOutcome> fireTogether(MissedFireTimeRecovery b, MissedFireTimeRecovery c, JobOptions job,
                                          RecoveryOptions recovery, Instant t2) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<RunOutcome>> done = new ArrayList<>();
            for (MissedFireTimeRecovery node : List.of(b, c)) {
                done.add(pool.submit(() -> {
                    go.await();
                    return fire(node, job, recovery, t2);
                }));
            }
            go.countDown();
            List<RunOutcome> outcomes = new ArrayList<>();
            for (Future<RunOutcome> f : done) {
                outcomes.add(f.get(60, TimeUnit.SECONDS));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void atLeastOnceRunsTheKilledNodesFireTimeAgainOnceWithAHigherToken() throws Exception {
        Instant t1 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant t2 = t1.plusSeconds(2);
        JobOptions job = JobOptions.builder("killed", LEASE).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_LEAST_ONCE).schedule(null).build();
        MissedFireTimeRecovery b = node("b", 700);
        MissedFireTimeRecovery c = node("c", -700);
        long killedToken = killedMidRun("killed", t1, Delivery.AT_LEAST_ONCE);
        await().atMost(Duration.ofSeconds(20)).until(() -> redis.call("EXISTS", "jgtest:{default:killed}:run")
                .equals(0L));

        assertThat(fireTogether(b, c, job, recovery, t2)).containsOnlyOnce(RunOutcome.RAN);

        List<RunContext> retries = runs.stream().filter(r -> r.nominalFireTime().equals(t1)).toList();
        assertThat(retries).hasSize(1);
        assertThat(retries.get(0).isRetry()).isTrue();
        assertThat(retries.get(0).attempt()).isEqualTo(2);
        assertThat(retries.get(0).fencingToken()).isGreaterThan(killedToken);
        assertThat(runs.stream().filter(r -> r.nominalFireTime().equals(t2))).hasSize(1);
        assertThat(events.stream().filter(e -> e.outcome() == RunOutcome.RETRIED)).hasSize(1);
    }

    @Test
    void atMostOnceDoesNotRunItAgainAndReportsItOnce() throws Exception {
        Instant t1 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant t2 = t1.plusSeconds(2);
        JobOptions job = JobOptions.builder("killed-once", LEASE).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.AT_MOST_ONCE).schedule(null).build();
        MissedFireTimeRecovery b = node("b", 700);
        MissedFireTimeRecovery c = node("c", -700);
        killedMidRun("killed-once", t1, Delivery.AT_MOST_ONCE);
        await().atMost(Duration.ofSeconds(20)).until(() -> redis.call("EXISTS", "jgtest:{default:killed-once}:run")
                .equals(0L));

        assertThat(fireTogether(b, c, job, recovery, t2)).containsOnlyOnce(RunOutcome.RAN);

        assertThat(runs.stream().filter(r -> r.nominalFireTime().equals(t1))).isEmpty();
        assertThat(events.stream().filter(e -> e.outcome() == RunOutcome.ABANDONED).map(JobEvent::nominalFireTime))
                .containsExactly(t1);
    }
}
