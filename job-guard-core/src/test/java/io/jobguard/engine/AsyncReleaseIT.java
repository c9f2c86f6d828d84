package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.internal.redis.LuaScript;
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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A firing's release is sent without waiting for its reply on the caller's thread, yet
 * the next acquire of the same node is executed after it (one shared Lettuce connection keeps the order),
 * {@code JobGuard.close()} waits for releases in flight, and a failed release is still counted. Real
 * redis-server behind a {@link TcpProxy} that stalls, delays or swallows the bytes.
 */
@WithRedis
class AsyncReleaseIT {

    private static final Instant T = Instant.parse("2026-11-23T12:00:00Z");
    private static final JobId JOB = new JobId("default", "async-release");
    /** RETURN without busy grace: a lease still held when the next acquire runs would make it BUSY at once. */
    private static final JobOptions OPTIONS = JobOptions.builder(JOB.name(), Duration.ofSeconds(30))
            .busyGrace(Duration.ZERO).keepAlive(false).build();

    private final RedisServerProcess redis;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private TcpProxy proxy;
    private RedisLeaseStore direct;

    AsyncReleaseIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        proxy = TcpProxy.start(redis.host(), redis.port());
        LettuceConnectionFactory directFactory = redis.connectionFactory(Duration.ofSeconds(10));
        toClose.add(directFactory::destroy);
        direct = RedisLeaseStore.create(directFactory);
        toClose.add(direct);
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
    void finishDoesNotWaitForTheReleaseAndTheNextAcquireIsExecutedAfterIt() throws Exception {
        JobGuard guard = node(viaProxy(Duration.ofSeconds(10)));
        Admission first = guard.admit(OPTIONS, T);
        assertThat(first.granted()).isTrue();

        proxy.pause();
        // with the connection stalled a synchronous release would block here until the proxy resumes
        CompletableFuture<RunOutcome> finished = CompletableFuture.supplyAsync(() -> first.permit().finish(null));
        assertThat(finished.get(5, TimeUnit.SECONDS)).isEqualTo(RunOutcome.RAN);
        CompletableFuture<RunOutcome> next = CompletableFuture.supplyAsync(() -> guard.run(OPTIONS, T.plusSeconds(60),
                () -> { }));
        proxy.resume();

        assertThat(next.get(10, TimeUnit.SECONDS)).as("the next firing saw its node's release").isEqualTo(RunOutcome.RAN);
        assertThat(guard.releaseFailures()).isZero();
    }

    @Test
    void consecutiveFiringsOnOneNodeAlwaysSeeTheirOwnRelease() {
        JobGuard guard = node(viaProxy(Duration.ofSeconds(10)));
        for (int k = 0; k < 200; k++) {
            assertThat(guard.run(OPTIONS, T.plusSeconds(k), () -> { })).as("firing %d", k).isEqualTo(RunOutcome.RAN);
        }
        assertThat(guard.releaseFailures()).isZero();
    }

    @Test
    void whenRedisLostTheReleaseScriptTheNextAcquireStillSeesTheRelease() {
        JobGuard guard = node(viaProxy(Duration.ofSeconds(10)));
        String acquireScript = new String(LuaScript.load("run-acquire").body(), StandardCharsets.UTF_8);
        for (int k = 0; k < 50; k++) {
            Admission admission = guard.admit(OPTIONS, T.plusSeconds(k));
            assertThat(admission.granted()).as("firing %d", k).isTrue();
            // Redis forgets the release script but knows the acquire script: the release's EVALSHA fails with
            // NOSCRIPT and goes out again as EVAL after the next acquire's EVALSHA, which succeeds; unless that
            // acquire waits for the release in flight, it finds the lease still held (BUSY)
            redis.call("SCRIPT", "FLUSH");
            redis.call("SCRIPT", "LOAD", acquireScript);
            admission.permit().finish(null);
        }
        assertThat(guard.run(OPTIONS, T.plusSeconds(50), () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(guard.releaseFailures()).isZero();
    }

    @Test
    void whenRedisLostTheReleaseScriptAReadAfterFinishStillSeesTheRelease() {
        RedisLeaseStore store = viaProxy(Duration.ofSeconds(10));
        JobGuard guard = node(store);
        for (int k = 0; k < 20; k++) {
            Admission admission = guard.admit(OPTIONS, T.plusSeconds(k));
            assertThat(admission.granted()).as("firing %d", k).isTrue();
            redis.call("SCRIPT", "FLUSH");
            admission.permit().finish(null);
            // a plain GET through the same connection, written before the release's EVAL retry
            assertThat(store.currentRunLease(JOB)).as("lease after firing %d", k).isEmpty();
        }
        assertThat(guard.releaseFailures()).isZero();
    }

    @Test
    void closeWaitsForTheReleasesInFlight() {
        JobGuard guard = node(viaProxy(Duration.ofSeconds(10)));
        Admission admission = guard.admit(OPTIONS, T);
        assertThat(admission.granted()).isTrue();
        proxy.delay(Duration.ofSeconds(1));

        admission.permit().finish(null);
        guard.close();

        // had close() not waited, the delayed release would still be on its way
        assertThat(direct.currentRunLease(JOB)).isEmpty();
        assertThat(guard.releaseFailures()).isZero();
    }

    @Test
    void aFailedReleaseIsStillCountedAndTheLeaseExpiresByItsTtl() {
        JobGuard guard = node(viaProxy(Duration.ofMillis(500)));
        Admission admission = guard.admit(OPTIONS, T);
        assertThat(admission.granted()).isTrue();
        proxy.blackhole();

        admission.permit().finish(null);

        await().atMost(Duration.ofSeconds(10)).until(() -> guard.releaseFailures() == 1);
        assertThat(direct.currentRunLease(JOB)).as("the lease was not released").isPresent();
    }

    private JobGuard node(RedisLeaseStore store) {
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("a").build())
                .skewTolerance(Duration.ofSeconds(30)).build());
        toClose.add(guard);
        return guard;
    }

    private RedisLeaseStore viaProxy(Duration commandTimeout) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(proxy.host(), proxy.port()),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout)
                        .shutdownQuietPeriod(Duration.ZERO).shutdownTimeout(Duration.ofMillis(100)).build());
        factory.afterPropertiesSet();
        factory.start();
        toClose.add(factory::destroy);
        RedisLeaseStore store = RedisLeaseStore.create(factory);
        toClose.add(store);
        store.serverTime();
        return store;
    }
}
