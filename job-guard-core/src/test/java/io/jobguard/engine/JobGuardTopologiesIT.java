package io.jobguard.engine;

import io.jobguard.Admission;
import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.StoreFailurePolicy;
import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.RedisTopology;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The engine contract ({@link JobGuardContract}) on every Redis topology and client, one nested class
 * each, plus what only one topology can show: a standalone Redis that stops or stalls, a Sentinel
 * failover between two fire times.
 *
 * <p>The servers belong to this class (see {@code RedisExtension}): each kind is started once, on the
 * first nested class that asks for it, shared by the nested classes that use it (emptied before every
 * test), and stopped when this class finishes. Each test opens its own connection factory and destroys it.
 */
@WithRedis
class JobGuardTopologiesIT {

    private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");

    @Nested
    @DisplayName("standalone lettuce")
    class StandaloneLettuce extends JobGuardContract {

        private final RedisServerProcess redis;

        StandaloneLettuce(RedisServerProcess redis) {
            // long enough that a loaded machine does not turn a slow reply into STORE_ERROR in the contract tests
            super(RedisTopology.standaloneLettuce(redis, Duration.ofSeconds(2)));
            this.redis = redis;
        }

        /** Before the nodes and connections close: a test may have left the server stopped. */
        @AfterEach
        void leaveRedisRunning() {
            redis.ensureRunning();
        }

        @Test
        void redisDownSkipsTheFiringWithStoreErrorAndTheNextFiringRunsOnceRedisIsBack() {
            JobGuard guard = node("a");
            JobOptions job = JobOptions.builder("down", Duration.ofSeconds(10)).build();
            redis.stop();
            int[] runs = {0};
            assertThat(guard.run(job, T, () -> runs[0]++)).isEqualTo(RunOutcome.STORE_ERROR);
            assertThat(runs[0]).isZero();
            assertThat(events).extracting(e -> e.outcome()).containsExactly(RunOutcome.STORE_ERROR);

            redis.restart();
            // a fresh fire time per attempt: an attempt that timed out on the client may still have taken its T
            AtomicInteger attempt = new AtomicInteger();
            await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
                    .until(() -> guard.run(job, T.plusSeconds(attempt.incrementAndGet()), () -> runs[0]++)
                            == RunOutcome.RAN);
            assertThat(runs[0]).isEqualTo(1);
        }

        @Test
        void storeFailurePolicyRunRunsUnguardedAndSaysSo() {
            JobGuard guard = node(JobGuardConfig.builder().node(NodeConfig.builder().nodeId("a").build())
                    .storeFailurePolicy(StoreFailurePolicy.RUN).build());
            redis.stop();
            boolean[] guarded = {true};
            assertThat(guard.run(JobOptions.builder("run-anyway", Duration.ofSeconds(10)).build(), T,
                    () -> guarded[0] = io.jobguard.RunContext.current().orElseThrow().isGuarded()))
                    .isEqualTo(RunOutcome.RAN);
            assertThat(guarded[0]).isFalse();
        }

        @Test
        void redisRestartedMidRunLetsNoExceptionEscape() {
            JobGuard guard = node("a");
            JobOptions job = JobOptions.builder("restart", Duration.ofMillis(600)).build();
            Admission admission = guard.admit(job, T);
            FiringPermit permit = admission.permit();
            redis.restart();
            // reconnected first, so the release really reaches the restarted Redis and gets an answer
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
                try (RedisConnection c = connectionFactory().getConnection()) {
                    return "PONG".equals(c.ping());
                }
            });
            // the restarted Redis lost the lease (no persistence): renewal or release reports it lost
            assertThat(permit.finish(null)).isEqualTo(RunOutcome.RAN);
            await().atMost(Duration.ofSeconds(5)).until(() -> permit.context().isLeaseLost());
            assertThat(events).extracting(e -> e.outcome()).containsExactly(RunOutcome.RAN);
        }

        @Test
        void aPausedRedisIsReportedAsLeaseLost() {
            JobGuard guard = node("a");
            JobOptions job = JobOptions.builder("paused", Duration.ofMillis(450)).build();
            try (FiringPermit permit = guard.admit(job, T).permit()) {
                redis.pause();
                try {
                    // the flag is set before listeners are told: wait for both
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        assertThat(permit.context().isLeaseLost()).isTrue();
                        assertThat(lost).hasSize(1);
                    });
                } finally {
                    redis.resume();
                }
            }
        }

        @Test
        void badInputFailsBeforeAnythingIsSent() {
            JobGuard guard = node("a");
            redis.resetStats();
            assertThatThrownBy(() -> guard.admit(JobOptions.builder("x", Duration.ofSeconds(1)).build(), null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nominal fire time of job 'x'");
            assertThatThrownBy(() -> JobOptions.builder(" ", Duration.ofSeconds(1)).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job name must not be blank");
            assertThatThrownBy(() -> JobOptions.builder("y".repeat(201), Duration.ofSeconds(1)).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 200");
            assertThatThrownBy(() -> JobOptions.builder("z", Duration.ZERO).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease of job 'z' must be positive");
            assertThatThrownBy(() -> JobOptions.builder("w", Duration.ofSeconds(1)).type(GuardType.WAIT)
                    .waitFor(Duration.ofSeconds(-1)).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waitFor of job 'w'");
            assertThat(redis.commandStats()).doesNotContainKeys("evalsha", "eval");
        }
    }

    /**
     * Nothing in the store depends on Lettuce. In the long suite ({@link LongSuite}): {@code mvn verify} runs Jedis on
     * the Cluster ({@link ClusterJedis}).
     */
    @Nested
    @LongSuite
    @DisplayName("standalone jedis")
    class StandaloneJedis extends JobGuardContract {

        StandaloneJedis(RedisServerProcess server) {
            super(RedisTopology.standaloneJedis(server));
        }
    }

    /** A 3-master Redis Cluster: every key of a job shares one hash slot. */
    @Nested
    @DisplayName("cluster lettuce")
    class ClusterLettuce extends JobGuardContract {

        ClusterLettuce(RedisClusterProcess cluster) {
            super(RedisTopology.clusterLettuce(cluster));
        }
    }

    @Nested
    @DisplayName("cluster jedis")
    class ClusterJedis extends JobGuardContract {

        ClusterJedis(RedisClusterProcess cluster) {
            super(RedisTopology.clusterJedis(cluster));
        }
    }

    /** Through Redis Sentinel (spring-data-redis {@code RedisSentinelConfiguration}). */
    @Nested
    @DisplayName("sentinel lettuce")
    class SentinelLettuce extends JobGuardContract {

        private final RedisSentinelProcess sentinel;

        SentinelLettuce(RedisSentinelProcess sentinel) {
            super(RedisTopology.sentinelLettuce(sentinel));
            this.sentinel = sentinel;
        }

        @Test
        void afterAFailoverTheNextFireTimeRunsOnTheNewMasterAndTheReplicatedOneDoesNotRunAgain() {
            JobGuard guard = node("a");
            JobOptions job = JobOptions.builder("failover", Duration.ofSeconds(30)).build();
            AtomicInteger runs = new AtomicInteger();
            assertThat(guard.run(job, T, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
            // Replication is asynchronous; wait for the replica so that the failover itself loses nothing.
            assertThat((Long) sentinel.master().call("WAIT", "1", "5000")).isEqualTo(1L);

            sentinel.failOver();

            await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                    .until(() -> guard.run(job, T.plusSeconds(1), runs::incrementAndGet) == RunOutcome.RAN);
            assertThat(guard.run(job, T, runs::incrementAndGet)).isEqualTo(RunOutcome.ALREADY_RAN);
            assertThat(runs).hasValue(2);
            assertThat(events).filteredOn(e -> e.outcome() == RunOutcome.RAN)
                    .extracting(e -> e.fencingToken()).isSorted().doesNotHaveDuplicates();
        }
    }
}
