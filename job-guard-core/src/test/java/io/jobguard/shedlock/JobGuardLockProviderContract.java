package io.jobguard.shedlock;

import io.jobguard.JobEvent;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.testing.OnRedisTopology;
import io.jobguard.testing.RedisTopology;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * ShedLock's provider contract, written by us, for {@link JobGuardLockProvider} on a real Redis;
 * each nested class of {@link JobGuardLockProviderTopologiesIT} supplies one topology. A "node" is one provider instance.
 */
abstract class JobGuardLockProviderContract extends OnRedisTopology {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final List<JobEvent> events = new CopyOnWriteArrayList<>();

    protected JobGuardLockProviderContract(RedisTopology topology) {
        super(topology);
    }

    private JobGuardLockProvider node(String nodeId) {
        return JobGuardLockProvider.builder(connectionFactory()).keyPrefix("jgit").namespace("it")
                .node(NodeConfig.builder().nodeId(nodeId).build())
                .listener(events::add).build();
    }

    private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    private static LockConfiguration config(String name) {
        return config(name, LONG, Duration.ZERO);
    }

    private long pttl(String name) {
        byte[] key = new KeySchema("jgit").shedLock("it", name).getBytes(StandardCharsets.UTF_8);
        try (RedisConnection c = connectionFactory().getConnection()) {
            Long pttl = c.keyCommands().pTtl(key);
            return pttl == null ? -2 : pttl;
        }
    }

    @Test
    void aHeldLockIsRefusedToEveryoneAndLivesAtMostLockAtMostFor() {
        JobGuardLockProvider a = node("a");
        JobGuardLockProvider b = node("b");
        Optional<SimpleLock> lock = a.lock(config("held", Duration.ofSeconds(20), Duration.ZERO));
        assertThat(lock).isPresent();
        assertThat(pttl("held")).isBetween(1L, 20_000L);
        assertThat(b.lock(config("held"))).isEmpty();
        assertThat(a.lock(config("held"))).as("not re-entrant").isEmpty();
        lock.get().unlock();
    }

    @Test
    void differentNamesAreIndependent() {
        JobGuardLockProvider a = node("a");
        assertThat(a.lock(config("one"))).isPresent();
        assertThat(a.lock(config("two"))).isPresent();
        assertThat(node("b").lock(config("three"))).isPresent();
    }

    @Test
    void aLockCanBeTakenAgainAfterUnlock() {
        JobGuardLockProvider a = node("a");
        a.lock(config("again")).orElseThrow().unlock();
        assertThat(pttl("again")).as("deleted at once without lockAtLeastFor").isEqualTo(-2L);
        SimpleLock second = node("b").lock(config("again")).orElseThrow();
        second.unlock();
        assertThat(a.lock(config("again"))).isPresent();
    }

    @Test
    void aLockNobodyUnlocksExpiresAfterLockAtMostFor() {
        JobGuardLockProvider a = node("a");
        JobGuardLockProvider b = node("b");
        long started = System.nanoTime();
        assertThat(a.lock(config("crashed", Duration.ofMillis(400), Duration.ZERO))).isPresent();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> b.lock(config("crashed")).isPresent());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(350));
    }

    @Test
    void anEarlyUnlockKeepsTheLockUntilLockAtLeastForHasPassed() {
        JobGuardLockProvider a = node("a");
        JobGuardLockProvider b = node("b");
        long started = System.nanoTime();
        a.lock(config("atleast", LONG, Duration.ofSeconds(2))).orElseThrow().unlock();
        assertThat(pttl("atleast")).isBetween(1L, 2000L);
        assertThat(b.lock(config("atleast"))).isEmpty();
        assertThat(a.lock(config("atleast"))).isEmpty();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> b.lock(config("atleast")).isPresent());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void extendKeepsTheLockBeyondItsFirstLockAtMostFor() {
        JobGuardLockProvider a = node("a");
        JobGuardLockProvider b = node("b");
        SimpleLock lock = a.lock(config("extend", Duration.ofSeconds(2), Duration.ZERO)).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(20), Duration.ZERO).orElseThrow();
        assertThat(pttl("extend")).isGreaterThan(10_000L);
        // past the first lockAtMostFor: only the extension keeps the lock
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> b.lock(config("extend")).isEmpty());
        extended.unlock();
        assertThat(b.lock(config("extend"))).isPresent();
    }

    @Test
    void lockAtLeastForOfAnExtendedLockCountsFromTheExtension() {
        SimpleLock lock = node("a").lock(config("extend-atleast", LONG, Duration.ZERO)).orElseThrow();
        lock.extend(LONG, Duration.ofSeconds(2)).orElseThrow().unlock();
        assertThat(pttl("extend-atleast")).isBetween(1L, 2000L);
        assertThat(node("b").lock(config("extend-atleast"))).isEmpty();
    }

    @Test
    void theOldHandleIsUnusableAfterExtend() {
        JobGuardLockProvider a = node("a");
        SimpleLock lock = a.lock(config("handle")).orElseThrow();
        SimpleLock extended = lock.extend(LONG, Duration.ZERO).orElseThrow();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThat(node("b").lock(config("handle"))).as("the failed calls released nothing").isEmpty();
        extended.unlock();
        assertThat(node("b").lock(config("handle"))).isPresent();
    }

    @Test
    void extendAfterUnlockIsRefused() {
        SimpleLock lock = node("a").lock(config("unlocked")).orElseThrow();
        lock.unlock();
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anExpiredLockCanNeitherBeExtendedNorReleaseItsNewHolder() {
        JobGuardLockProvider a = node("a");
        JobGuardLockProvider b = node("b");
        SimpleLock stale = a.lock(config("expired", Duration.ofMillis(300), Duration.ZERO)).orElseThrow();
        SimpleLock staleToo = a.lock(config("expired2", Duration.ofMillis(300), Duration.ZERO)).orElseThrow();
        // one at a time: a successful b.lock holds that name, so a combined condition could never become true
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> b.lock(config("expired")).isPresent());
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> b.lock(config("expired2")).isPresent());

        assertThat(stale.extend(LONG, Duration.ZERO)).isEmpty();
        staleToo.unlock();
        assertThat(node("c").lock(config("expired"))).as("b still holds it").isEmpty();
        assertThat(node("c").lock(config("expired2"))).as("b still holds it").isEmpty();
    }

    @Test
    void locksAreReportedToTheListenerAndListedWhileHeld() {
        JobGuardLockProvider a = node("a");
        SimpleLock lock = a.lock(config("observed")).orElseThrow();
        assertThat(a.heldLocks()).extracting(JobGuardLockProvider.HeldLock::name).containsExactly("observed");
        assertThat(a.heldLocks().get(0).nodeId()).isEqualTo("a");
        assertThat(node("b").lock(config("observed"))).isEmpty();
        SimpleLock extended = lock.extend(LONG, Duration.ZERO).orElseThrow();
        assertThat(a.heldLocks()).hasSize(1);
        extended.unlock();
        assertThat(a.heldLocks()).isEmpty();
        assertThat(events).extracting(JobEvent::job, JobEvent::nodeId, JobEvent::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple("observed", "b", RunOutcome.BUSY),
                org.assertj.core.groups.Tuple.tuple("observed", "a", RunOutcome.RAN));
    }

    @Test
    void badSettingsAreRejectedNamingTheCulprit() {
        assertThatThrownBy(() -> JobGuardLockProvider.builder(connectionFactory()).namespace("a{b}").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
        assertThatThrownBy(() -> node("a").lock(config("zero", Duration.ZERO, Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'zero'");
    }

    @Test
    void manyThreadsGuardedByTwoLocksLoseNoUpdate() throws Exception {
        int threads = 8;
        int rounds = 150;
        long[] counters = new long[2];
        AtomicInteger[] done = {new AtomicInteger(), new AtomicInteger()};
        List<LockingTaskExecutor> executors = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            executors.add(new DefaultLockingTaskExecutor(node("fuzz-" + n)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                LockingTaskExecutor executor = executors.get(t % executors.size());
                int seed = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        int which = (seed + i) % 2;
                        executor.executeWithLock((Runnable) () -> {
                            long read = counters[which];
                            Thread.yield();
                            counters[which] = read + 1;
                            done[which].incrementAndGet();
                        }, config("fuzz-counter-" + which, LONG, Duration.ZERO));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // The counters are plain fields: only the locks keep two read-modify-writes apart, so an
        // overlap shows up as a count lower than the number of completed updates.
        assertThat(counters[0]).isEqualTo(done[0].get()).isPositive();
        assertThat(counters[1]).isEqualTo(done[1].get()).isPositive();
    }
}
