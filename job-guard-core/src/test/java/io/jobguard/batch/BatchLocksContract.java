package io.jobguard.batch;

import io.jobguard.NodeConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.OnRedisTopology;
import io.jobguard.testing.RedisTopology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The guarantees of {@link BatchLocks} (DESIGN §3) on a real Redis; each nested class of
 * {@link BatchLocksTopologiesIT} supplies one topology, client and key mode. Each "node" is its own {@link RedisBatchLocks} with its
 * own node id on the shared connection factory.
 */
abstract class BatchLocksContract extends OnRedisTopology {

    protected static final String NS = "sku";
    private static final Duration LONG = Duration.ofSeconds(30);

    private final List<AutoCloseable> closeables = new ArrayList<>();

    protected BatchLocksContract(RedisTopology topology) {
        super(topology);
    }

    protected BatchLockConfig.Builder config(String nodeId) {
        return BatchLockConfig.builder().node(NodeConfig.builder().nodeId(nodeId).build());
    }

    protected RedisBatchLocks node(String nodeId) {
        return node(config(nodeId).build());
    }

    protected RedisBatchLocks node(BatchLockConfig config) {
        RedisBatchLocks locks = RedisBatchLocks.create(connectionFactory(), "jgtest", config);
        closeables.add(locks);
        return locks;
    }

    @AfterEach
    void closeNodes() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
    }

    protected static List<String> keys(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> String.format("SKU-%05d", i)).toList();
    }

    @Test
    void conflictOnTheLastOf3000KeysLeavesNoneOfThemLocked() {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        try (BatchLease blocker = a.tryAcquire(NS, keys(2999, 3000), LONG).orElseThrow()) {
            BatchAttempt attempt = b.tryAcquire(NS, keys(0, 3000), LONG);

            assertThat(attempt.acquired()).isFalse();
            assertThat(attempt.result()).isEqualTo(BatchResult.CONFLICT);
            assertThat(attempt.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.key()).isEqualTo("SKU-02999");
                assertThat(c.holder().nodeId()).isEqualTo("a");
                assertThat(c.holder().fencingToken()).isEqualTo(blocker.fencingToken());
                assertThat(c.holder().expiresIn()).isPositive();
            });
            // Every other key is free: a third node takes all of them at once.
            try (BatchLease rest = node("c").tryAcquire(NS, keys(0, 2999), LONG).orElseThrow()) {
                assertThat(rest.keyCount()).isEqualTo(2999);
            }
        }
    }

    @Test
    void everyKeyIsHeldUntilCloseAndFreeAfterwards() {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        BatchLease lease = a.tryAcquire(NS, keys(0, 1500), LONG).orElseThrow();
        assertThat(lease.isValid()).isTrue();
        for (String key : List.of("SKU-00000", "SKU-00777", "SKU-01499")) {
            assertThat(b.tryAcquire(NS, List.of(key), LONG).conflicts()).extracting(BatchConflict::key).containsExactly(key);
        }
        lease.close();
        assertThat(lease.isValid()).isFalse();
        lease.close();
        try (BatchLease again = b.tryAcquire(NS, keys(0, 1500), LONG).orElseThrow()) {
            assertThat(again.fencingToken()).isGreaterThan(lease.fencingToken());
        }
    }

    @Test
    void duplicatesAreIgnoredAndTheSameLeaseMayTakeKeysItHolds() {
        RedisBatchLocks a = node("a");
        List<String> withDuplicates = new ArrayList<>(keys(0, 10));
        withDuplicates.addAll(keys(0, 10));
        try (BatchLease lease = a.tryAcquire(NS, withDuplicates, LONG).orElseThrow()) {
            assertThat(lease.keyCount()).isEqualTo(10);
            assertThat(lease.tryExtend(keys(5, 20))).isEmpty();
            assertThat(lease.keyCount()).isEqualTo(20);
            assertThat(lease.tryExtend(keys(0, 20))).isEmpty();
            assertThat(lease.renew()).isTrue();
        }
        try (BatchLease lease = a.tryAcquire(NS, keys(0, 20), LONG).orElseThrow()) {
            assertThat(lease.keyCount()).isEqualTo(20);
        }
    }

    @Test
    void aFailedExtensionChangesNothing() {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        try (BatchLease other = b.tryAcquire(NS, keys(29, 30), LONG).orElseThrow();
             BatchLease lease = a.tryAcquire(NS, keys(0, 10), LONG).orElseThrow()) {
            assertThat(lease.tryExtend(keys(10, 30))).extracting(BatchConflict::key).containsExactly("SKU-00029");
            assertThat(lease.keyCount()).isEqualTo(10);
            assertThat(other.isValid()).isTrue();
            try (BatchLease free = b.tryAcquire(NS, keys(10, 29), LONG).orElseThrow()) {
                assertThat(free.keyCount()).isEqualTo(19);
            }
        }
    }

    @Test
    void anExpiredLeaseCannotReleaseOrRenewKeysNowHeldByAnother() {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        BatchLease expired = a.tryAcquire(NS, keys(0, 50), Duration.ofMillis(200)).orElseThrow();
        AtomicReference<BatchLease> taken = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            BatchAttempt attempt = b.tryAcquire(NS, keys(0, 50), LONG);
            attempt.lease().ifPresent(taken::set);
            return attempt.acquired();
        });
        BatchLease current = taken.get();

        assertThat(expired.isValid()).isFalse();
        assertThat(expired.renew()).isFalse();
        expired.close();

        BatchAttempt third = node("c").tryAcquire(NS, keys(0, 50), LONG);
        assertThat(third.acquired()).isFalse();
        assertThat(third.conflicts()).first().satisfies(c -> assertThat(c.holder().nodeId()).isEqualTo("b"));
        assertThat(current.renew()).isTrue();
        current.close();
    }

    @Test
    void waitForBatchesOverlappingInReverseOrderBothComplete() throws Exception {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        List<String> forward = keys(0, 300);
        List<String> backward = new ArrayList<>(keys(100, 400));
        Collections.reverse(backward);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            Future<Integer> fa = pool.submit(() -> rounds(a, forward, start));
            Future<Integer> fb = pool.submit(() -> rounds(b, backward, start));
            start.countDown();
            assertThat(fa.get(30, TimeUnit.SECONDS)).isEqualTo(20);
            assertThat(fb.get(30, TimeUnit.SECONDS)).isEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int rounds(RedisBatchLocks locks, List<String> keys, CountDownLatch start) throws Exception {
        start.await();
        int done = 0;
        for (int i = 0; i < 20; i++) {
            try (BatchLease lease = locks.acquire(NS, keys, LONG, Duration.ofSeconds(20)).orElseThrow()) {
                assertThat(lease.keyCount()).isEqualTo(keys.size());
                done++;
            }
        }
        return done;
    }

    @Test
    void waitingEndsOnTheReleaseNotificationNotOnAPoll() throws Exception {
        RedisBatchLocks a = node("a");
        // A poll interval far beyond the test's bound: only the notification can wake the waiter in time.
        RedisBatchLocks b = node(config("b").waitPollInterval(Duration.ofMinutes(5)).build());
        BatchLease holder = a.tryAcquire(NS, keys(0, 100), Duration.ofMinutes(5)).orElseThrow();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<BatchAttempt> waiter = CompletableFuture.supplyAsync(() -> {
            waiting.countDown();
            try {
                return b.acquire(NS, keys(50, 150), LONG, Duration.ofMinutes(4));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        waiting.await();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !waiter.isDone());
        holder.close();
        BatchAttempt attempt = waiter.get(10, TimeUnit.SECONDS);
        assertThat(attempt.acquired()).isTrue();
        attempt.orElseThrow().close();
    }

    @Test
    void waitingTimesOutHoldingNothing() throws Exception {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        try (BatchLease holder = a.tryAcquire(NS, keys(99, 100), LONG).orElseThrow()) {
            BatchAttempt attempt = b.acquire(NS, keys(0, 100), LONG, Duration.ofMillis(300));
            assertThat(attempt.result()).isEqualTo(BatchResult.TIMEOUT);
            assertThat(attempt.conflicts()).extracting(BatchConflict::key).containsExactly("SKU-00099");
            assertThatThrownBy(attempt::orElseThrow).isInstanceOf(BatchLockUnavailableException.class)
                    .hasMessageContaining("TIMEOUT").hasMessageContaining("SKU-00099");
            try (BatchLease rest = node("c").tryAcquire(NS, keys(0, 99), LONG).orElseThrow()) {
                assertThat(rest.keyCount()).isEqualTo(99);
            }
            assertThat(holder.isValid()).isTrue();
        }
    }

    @Test
    void anInterruptedWaiterGivesUpHoldingNothing() throws Exception {
        RedisBatchLocks a = node("a");
        RedisBatchLocks b = node("b");
        try (BatchLease holder = a.tryAcquire(NS, keys(0, 1), LONG).orElseThrow()) {
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            CountDownLatch finished = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                try {
                    outcome.set(new AssertionError("acquired: " + b.acquire(NS, keys(0, 200), LONG, LONG)));
                } catch (InterruptedException e) {
                    outcome.set(e);
                } finally {
                    finished.countDown();
                }
            });
            waiter.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
            waiter.interrupt();
            assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
            try (BatchLease rest = node("c").tryAcquire(NS, keys(1, 200), LONG).orElseThrow()) {
                assertThat(rest.keyCount()).isEqualTo(199);
            }
            assertThat(holder.isValid()).isTrue();
        }
    }

    @Test
    void liveLeasesAreListedFromTheIndex() {
        RedisBatchLocks a = node("a");
        BatchLease lease = a.tryAcquire(NS, keys(0, 5), LONG).orElseThrow();
        assertThat(a.liveLeases(NS)).singleElement().satisfies(r -> {
            assertThat(r.nodeId()).isEqualTo("a");
            assertThat(r.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(r.expiresIn()).isPositive().isLessThanOrEqualTo(LONG);
        });
        lease.close();
        assertThat(a.liveLeases(NS)).isEmpty();
    }

    @Test
    void keepAliveHoldsKeysPastTheLeaseAndReportsALoss() throws Exception {
        RedisBatchLocks a = node(config("a").keepAlive(true).build());
        RedisBatchLocks b = node("b");
        CountDownLatch lost = new CountDownLatch(1);
        a.addListener(new BatchLockListener() {
            @Override
            public void onAcquisition(BatchLockEvent event) {
            }

            @Override
            public void onLeaseLost(BatchLease lease) {
                lost.countDown();
            }
        });
        // renewed every third of the lease: a 1 s lease survives a few hundred ms of a starved keep-alive thread
        BatchLease lease = a.tryAcquire(NS, keys(0, 20), Duration.ofSeconds(1)).orElseThrow();
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(6))
                .until(() -> !b.tryAcquire(NS, keys(19, 20), LONG).acquired());
        assertThat(lease.isValid()).isTrue();

        // every key removed behind the lease's back (a failover that lost writes, an operator)
        topology().flushAll();
        assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lease.isValid()).isFalse();
        lease.close();
    }}
