package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobEvent;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.LeaseLostException;
import io.jobguard.NodeConfig;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.TcpProxy;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Lease loss as it happens: a renewal stalled on one connection by a TCP proxy, a lease taken
 * away under a running job, an acquire whose reply is lost. Real redis-server, real Lettuce, real sockets.
 */
@WithRedis
class LeaseLossIT {

    private static final Instant T = Instant.parse("2026-11-23T12:00:00Z");
    private static final String NAMESPACE = "default";

    private final RedisServerProcess redis;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private TcpProxy proxy;
    private RedisLeaseStore direct;

    LeaseLossIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        proxy = TcpProxy.start(redis.host(), redis.port());
        LettuceConnectionFactory directFactory = redis.connectionFactory(Duration.ofSeconds(10));
        toClose.add(directFactory::destroy);
        direct = RedisLeaseStore.create(directFactory);
        toClose.add(direct);
        // The first command of a JVM starts Lettuce (seconds on a loaded machine), and a lease's deadline counts
        // from when its acquire was sent: warm up first, so the leases below are not eaten by start-up.
        direct.serverTime();
    }

    @AfterEach
    void stop() throws Exception {
        proxy.resume();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        proxy.close();
    }

    @Test
    void aStalledRenewalDelaysNoOtherLeaseAndItsLeaseIsReportedLostBeforeRedisExpiresIt() throws Exception {
        // Every command on a connection of its own, so that one stalled socket carries one renewal only.
        RedisLeaseStore store = viaProxy(Duration.ofSeconds(10), false);
        store.serverTime();
        JobGuard guard = node("a", store, false);
        Map<String, Long> lostAt = new ConcurrentHashMap<>();
        guard.addListener(new JobGuardListener() {
            @Override
            public void onJobEvent(JobEvent event) {
                // outcomes are not what this test is about
            }

            @Override
            public void onLeaseLost(RunContext context) {
                lostAt.putIfAbsent(context.job(), System.nanoTime());
            }
        });
        JobOptions stalledJob = JobOptions.builder("stalled-job", Duration.ofSeconds(3)).build();
        JobOptions healthyJob = JobOptions.builder("healthy-job", Duration.ofSeconds(3)).build();
        FiringPermit stalled = guard.admit(stalledJob, T).permit();
        FiringPermit healthy = guard.admit(healthyJob, T).permit();

        proxy.pauseLinksCarrying("stalled-job");
        long stallStarted = System.nanoTime();

        // Redis expires the stalled lease by TTL: by then this node must already have given it up.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> direct.currentRunLease(new JobId(NAMESPACE, "stalled-job")).isEmpty());
        long goneAt = System.nanoTime();
        assertThat(stalled.context().isLeaseLost()).isTrue();
        assertThatThrownBy(() -> stalled.context().checkLease()).isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("stalled-job");
        assertThat(lostAt).containsKey("stalled-job");
        assertThat(lostAt.get("stalled-job")).as("lease-lost reported before Redis expired the lease")
                .isLessThanOrEqualTo(goneAt);
        assertThat(Duration.ofNanos(goneAt - stallStarted)).as("the stalled lease really outlived a lease period")
                .isGreaterThan(Duration.ofSeconds(2));

        // Meanwhile the other lease kept being renewed: still held, well past its own 3 s lease.
        await().atMost(Duration.ofSeconds(20))
                .until(() -> System.nanoTime() - stallStarted > Duration.ofSeconds(7).toNanos());
        assertThat(direct.currentRunLease(new JobId(NAMESPACE, "healthy-job"))).isPresent();
        assertThat(healthy.context().isLeaseLost()).isFalse();
        assertThat(lostAt).doesNotContainKey("healthy-job");
        assertThat(healthy.finish(null)).isEqualTo(RunOutcome.RAN);
        assertThat(lostAt).doesNotContainKey("healthy-job");

        proxy.resume();
        stalled.finish(null);
    }

    @Test
    void aRunInFlightWhenRedisGoesDownIsToldByItsDeadline() throws Exception {
        JobGuard guard = node("a", direct, false);
        CountDownLatch told = new CountDownLatch(1);
        guard.addListener(new JobGuardListener() {
            @Override
            public void onJobEvent(JobEvent event) {
                // outcomes are not what this test is about
            }

            @Override
            public void onLeaseLost(RunContext context) {
                told.countDown();
            }
        });
        FiringPermit permit = guard.admit(JobOptions.builder("redis-down-job", Duration.ofSeconds(3)).build(), T).permit();
        long stopped = System.nanoTime();
        redis.stop();
        try {
            // The renewals hang or fail (10 s command timeout); the run is told at its deadline, within the lease.
            assertThat(told.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(Duration.ofSeconds(10));
            assertThat(permit.context().isLeaseLost()).isTrue();
            assertThatThrownBy(() -> permit.context().checkLease()).isInstanceOf(LeaseLostException.class);
        } finally {
            redis.ensureRunning();
        }
        permit.finish(null);
    }

    @Test
    void interruptOnLeaseLostInterruptsTheRunsThreadOnlyAndOnlyWhileItRuns() throws Exception {
        JobGuard guard = node("a", direct, true);
        JobOptions job = JobOptions.builder("interrupted-job", Duration.ofSeconds(6)).build();
        CountDownLatch admitted = new CountDownLatch(1);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        AtomicBoolean leaseLostInBody = new AtomicBoolean();
        AtomicBoolean interruptedAfterFinish = new AtomicBoolean(true);
        AtomicBoolean bystanderInterrupted = new AtomicBoolean();
        CountDownLatch bystanderDone = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);

        Thread bystander = new Thread(() -> {
            try {
                never.await(15, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                bystanderInterrupted.set(true);
            }
            bystanderDone.countDown();
        }, "bystander");
        bystander.start();
        Thread runner = new Thread(() -> {
            FiringPermit permit = guard.admit(job, T).permit();
            admitted.countDown();
            try {
                never.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                seen.set(e);
                leaseLostInBody.set(permit.context().isLeaseLost());
                Thread.currentThread().interrupt(); // as well-behaved code does
            }
            permit.finish(seen.get());
            interruptedAfterFinish.set(Thread.currentThread().isInterrupted());
        }, "runner");
        runner.start();
        assertThat(admitted.await(10, TimeUnit.SECONDS)).isTrue();

        // Someone else takes the lease away: the next renewal finds it gone.
        assertThat(direct.forceReleaseRun(new JobId(NAMESPACE, "interrupted-job"))).isTrue();
        runner.join(TimeUnit.SECONDS.toMillis(20));

        assertThat(seen.get()).isInstanceOf(InterruptedException.class);
        assertThat(leaseLostInBody).isTrue();
        assertThat(interruptedAfterFinish).as("the interrupt does not outlive the run").isFalse();
        never.countDown();
        assertThat(bystanderDone.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(bystanderInterrupted).as("no other thread is interrupted").isFalse();
    }

    @Test
    void aLostAcquireReplyCostsOneFiringNotTheLease() {
        RedisLeaseStore store = viaProxy(Duration.ofSeconds(1), true);
        store.serverTime(); // the connection is up before its replies start to get lost
        JobGuard a = node("a", store, false);
        JobGuard b = node("b", direct, false);
        JobOptions job = JobOptions.builder("lost-reply-job", Duration.ofSeconds(60)).build();
        JobId id = new JobId(NAMESPACE, "lost-reply-job");
        sawTheJob(a, job);
        publishedItsLead(a);

        proxy.dropReplies();
        assertThat(a.admit(job, T).refusal()).isEqualTo(RunOutcome.STORE_ERROR);
        // The command did run: Redis holds a 60 s lease that nobody runs under.
        assertThat(direct.currentRunLease(id)).get().satisfies(lease -> assertThat(lease.nodeId()).isEqualTo("a"));
        // The reply is gone for good: TCP resets the connection; Lettuce reconnects through the proxy.
        proxy.resume();
        proxy.dropConnections();

        // The next fire time runs on another node long before the 60 s lease would have expired.
        Instant next = T.plusSeconds(5);
        long started = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> admitAndFinish(b, job, next));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        // The lost firing itself is not run again.
        assertThat(b.admit(job, T).refusal()).isEqualTo(RunOutcome.ALREADY_RAN);
    }

    @Test
    void theNodeWhoseReplyWasLostReleasesItsOwnLeaseBeforeItsNextAdmission() {
        RedisLeaseStore store = viaProxy(Duration.ofSeconds(1), true);
        store.serverTime(); // the connection is up before its replies start to get lost
        JobGuard a = node("a", store, false);
        JobOptions job = JobOptions.builder("lost-reply-self", Duration.ofSeconds(60)).build();
        sawTheJob(a, job);
        publishedItsLead(a);

        proxy.dropReplies();
        assertThat(a.admit(job, T).refusal()).isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(direct.currentRunLease(new JobId(NAMESPACE, "lost-reply-self"))).isPresent();
        proxy.resume();
        proxy.dropConnections();

        AtomicBoolean ran = new AtomicBoolean();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> a.run(job, T.plusSeconds(5), () -> ran.set(true)) == RunOutcome.RAN);
        assertThat(ran).isTrue();
    }

    @Test
    void handOverAtShutdownWaitsForRunsThatEndThenGivesUpTheLeaseOfTheOneStillRunning() throws Exception {
        JobGuard a = node("a", direct, false);
        JobGuard b = node("b", direct, false);
        JobOptions quick = JobOptions.builder("quick-job", Duration.ofSeconds(60)).build();
        JobOptions slow = JobOptions.builder("slow-job", Duration.ofSeconds(60)).build();
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch quickMayEnd = new CountDownLatch(1);
        CountDownLatch slowMayEnd = new CountDownLatch(1);
        AtomicBoolean slowToldLost = new AtomicBoolean();
        Thread quickRun = new Thread(() -> a.run(quick, T, () -> {
            running.countDown();
            awaitQuietly(quickMayEnd);
        }));
        Thread slowRun = new Thread(() -> a.run(slow, T, () -> {
            running.countDown();
            awaitQuietly(slowMayEnd);
            slowToldLost.set(RunContext.current().orElseThrow().isLeaseLost());
        }));
        quickRun.start();
        slowRun.start();
        assertThat(running.await(20, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Integer> handOver = CompletableFuture.supplyAsync(() -> {
            try {
                return a.handOverLeases(Duration.ofSeconds(3));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        quickMayEnd.countDown(); // ends within the wait: released as usual
        assertThat(handOver.get(30, TimeUnit.SECONDS)).isEqualTo(1);

        // The slow run's 60 s lease is gone at once: the next fire time runs on another node.
        assertThat(direct.currentRunLease(new JobId(NAMESPACE, "slow-job"))).isEmpty();
        assertThat(admitAndFinish(b, slow, T.plusSeconds(60))).isTrue();
        assertThat(admitAndFinish(b, quick, T.plusSeconds(60))).isTrue();
        assertThat(b.admit(slow, T).refusal()).as("the given-up fire time is not run again")
                .isEqualTo(RunOutcome.ALREADY_RAN);
        slowMayEnd.countDown();
        slowRun.join(20_000);
        assertThat(slowToldLost).as("the run still going was told").isTrue();
    }

    @Test
    void afterTheHandOverAFiringAsksForNoLeaseAndAnotherNodeRunsIt() throws Exception {
        JobGuard a = node("a", direct, false);
        JobGuard b = node("b", direct, false);
        JobOptions job = JobOptions.builder("after-hand-over", Duration.ofMinutes(10)).build();
        assertThat(a.handOverLeases(Duration.ZERO)).isZero();

        // a node whose leases were handed over is stopping: a lease it took now could outlive its store
        assertThat(a.run(job, T, () -> { throw new AssertionError("ran on the stopping node"); }))
                .isEqualTo(RunOutcome.STORE_ERROR);
        assertThat(direct.currentRunLease(new JobId(NAMESPACE, "after-hand-over"))).isEmpty();
        assertThat(b.run(job, T, () -> { })).isEqualTo(RunOutcome.RAN);

        // a node whose store's connections start again after a stop takes leases again
        a.reopenAdmission();
        assertThat(a.run(job, T.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean admitAndFinish(JobGuard guard, JobOptions job, Instant fireTime) {
        Admission admission = guard.admit(job, fireTime);
        if (!admission.granted()) {
            return false;
        }
        return admission.permit().finish(null) == RunOutcome.RAN;
    }

    private JobGuard node(String nodeId, RedisLeaseStore store, boolean interrupt) {
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(nodeId)
                .build())
                .skewTolerance(Duration.ofSeconds(30)).interruptOnLeaseLost(interrupt).build());
        toClose.add(guard);
        return guard;
    }

    private RedisLeaseStore viaProxy(Duration commandTimeout, boolean shared) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(proxy.host(), proxy.port()),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout)
                        .shutdownQuietPeriod(Duration.ZERO).shutdownTimeout(Duration.ofMillis(100)).build());
        factory.setShareNativeConnection(shared);
        factory.afterPropertiesSet();
        factory.start();
        toClose.add(factory::destroy);
        RedisLeaseStore store = RedisLeaseStore.create(factory);
        toClose.add(store);
        return store;
    }

    /**
     * An earlier fire time of the job runs on the node, so the node knows the job's epoch: its next acquire of the job
     * is the script call alone (a node reads the fleet's leads before its first acquire of a job it never saw).
     */
    private static void sawTheJob(JobGuard node, JobOptions job) {
        assertThat(node.run(job, T.minusSeconds(5), () -> { })).as("an earlier fire time of the job").isEqualTo(RunOutcome.RAN);
    }

    /**
     * A node publishes its clock lead to the fleet before its first admission; running one firing of another job
     * first makes the next admission's one command the acquire whose reply the test loses.
     */
    private static void publishedItsLead(JobGuard node) {
        assertThat(node.run(JobOptions.builder("warm-up", Duration.ofSeconds(60)).build(), T, () -> { }))
                .as("the warm-up firing").isEqualTo(RunOutcome.RAN);
    }
}
