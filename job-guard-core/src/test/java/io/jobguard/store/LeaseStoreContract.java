package io.jobguard.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The semantics every {@link LeaseStore} promises to the engine, run against each implementation.
 * A "node" is one store instance; subclasses decide whether nodes share an instance (in-memory)
 * or only the backend (Redis, a ShedLock provider).
 */
public abstract class LeaseStoreContract {

    protected static final Instant T = Instant.parse("2026-11-22T12:00:00Z");
    private static final Duration LONG = Duration.ofSeconds(30);

    private final List<LeaseStore> opened = new ArrayList<>();
    private final AtomicInteger fireTimes = new AtomicInteger();
    protected final JobId job = new JobId("contract", "job-" + UUID.randomUUID().toString().substring(0, 8));

    /**
     * A store for one node, on the backend shared by the test's nodes.
     *
     * @param nodeId the node
     * @return the store (closed after the test)
     */
    protected abstract LeaseStore newStore(String nodeId);

    /**
     * The optional capabilities ({@link RunRecovery}, {@link OutcomeRecording}, {@link FleetView}, {@link RunHistory},
     * {@link OperatorControl}) the store offers.
     *
     * @return the capability interfaces
     */
    protected abstract Set<Class<?>> capabilities();

    private static final List<Class<?>> ALL_CAPABILITIES = List.of(RunRecovery.class, OutcomeRecording.class,
            FleetView.class, RunHistory.class, OperatorControl.class);

    /**
     * Runs {@code check} on the capability when the store declares it; otherwise asserts it is truly absent
     * (a store without it must not answer, rather than answer wrongly).
     */
    private <C> void whenOffered(LeaseStore store, Class<C> capability, java.util.function.Consumer<C> check) {
        if (capabilities().contains(capability)) {
            check.accept(store.capability(capability).orElseThrow());
        } else {
            assertThat(store.capability(capability)).as(capability.getSimpleName()).isEmpty();
        }
    }

    @Test
    void offersExactlyItsDeclaredCapabilities() {
        LeaseStore a = node("a");
        for (Class<?> capability : ALL_CAPABILITIES) {
            assertThat(a.capability(capability).isPresent()).as(capability.getSimpleName())
                    .isEqualTo(capabilities().contains(capability));
        }
    }

    protected LeaseStore node(String nodeId) {
        LeaseStore store = newStore(nodeId);
        opened.add(store);
        return store;
    }

    /** Releases what the backend holds for the test, after every store is closed. */
    protected void closeBackend() {
        // nothing by default
    }

    @AfterEach
    void closeStores() {
        opened.forEach(LeaseStore::close);
        closeBackend();
    }

    protected RunLeaseRequest request(String node, Instant fireTime, Duration lease) {
        return new RunLeaseRequest(job, fireTime, UUID.randomUUID().toString(), node, lease, LONG, 5);
    }

    /** A fire time no earlier attempt of this test used. */
    protected Instant nextT() {
        return T.plusSeconds(60L * fireTimes.incrementAndGet());
    }

    @Test
    void eachFireTimeIsAcquiredOnceEvenAfterTheRunEnded() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        RunLeaseRequest first = request("a", T, LONG);
        assertThat(a.acquireRun(first).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(a.releaseRun(first, Duration.ZERO)).isTrue();

        assertThat(b.acquireRun(request("b", T, LONG)).status()).isEqualTo(AcquireResult.Status.ALREADY_RAN);
        assertThat(a.acquireRun(request("a", T, LONG)).status()).isEqualTo(AcquireResult.Status.ALREADY_RAN);
        assertThat(b.acquireRun(request("b", nextT(), LONG)).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void theSameAttemptAskingAgainKeepsWhatItHolds() {
        LeaseStore a = node("a");
        RunLeaseRequest r = request("a", T, LONG);
        AcquireResult first = a.acquireRun(r);
        AcquireResult again = a.acquireRun(r);
        assertThat(again.status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(again.fencingToken()).isEqualTo(first.fencingToken());
    }

    @Test
    void anotherRunIsBusyWhileTheLeaseIsHeldAndGetsItAfterRelease() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        RunLeaseRequest held = request("a", T, LONG);
        assertThat(a.acquireRun(held).status()).isEqualTo(AcquireResult.Status.ACQUIRED);

        Instant later = nextT();
        assertThat(b.acquireRun(request("b", later, LONG)).status()).isEqualTo(AcquireResult.Status.BUSY);
        // A BUSY attempt must not burn its fire time: the same T runs once the lease is free.
        assertThat(a.releaseRun(held, Duration.ZERO)).isTrue();
        assertThat(b.acquireRun(request("b", later, LONG)).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void onlyTheOwnerRenewsOrReleases() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        RunLeaseRequest held = request("a", T, LONG);
        assertThat(a.acquireRun(held).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        RunLeaseRequest stranger = new RunLeaseRequest(job, T, "not-the-owner", "b", LONG, LONG, 5);

        assertThat(b.renewRun(stranger)).isFalse();
        assertThat(b.releaseRun(stranger, Duration.ZERO)).isFalse();
        assertThat(b.acquireRun(request("b", nextT(), LONG)).status()).isEqualTo(AcquireResult.Status.BUSY);

        assertThat(a.renewRun(held)).isTrue();
        assertThat(a.releaseRun(held, Duration.ZERO)).isTrue();
        assertThat(a.releaseRun(held, Duration.ZERO)).isFalse();
        assertThat(a.renewRun(held)).isFalse();
    }

    @Test
    void anUnreleasedLeaseExpiresAndItsHolderLearnsItWasLost() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        RunLeaseRequest crashed = request("a", T, Duration.ofMillis(300));
        assertThat(a.acquireRun(crashed).status()).isEqualTo(AcquireResult.Status.ACQUIRED);

        RunLeaseRequest successor = request("b", nextT(), LONG);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> b.acquireRun(successor).status() == AcquireResult.Status.ACQUIRED);
        assertThat(a.renewRun(crashed)).isFalse();
        assertThat(a.releaseRun(crashed, Duration.ZERO)).isFalse();
        assertThat(b.releaseRun(successor, Duration.ZERO)).isTrue();
        // The expired run's fire time stays taken: the crashed run is not repeated.
        assertThat(b.acquireRun(request("b", T, LONG)).status()).isEqualTo(AcquireResult.Status.ALREADY_RAN);
    }

    @Test
    void renewalKeepsTheLeaseBeyondItsTimeToLive() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        RunLeaseRequest held = request("a", T, Duration.ofSeconds(2));
        assertThat(a.acquireRun(held).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        Instant later = nextT();
        // Renew every 150 ms for 3 s, well past the 2 s lease; nobody else may get in.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(150))
                .until(() -> a.renewRun(held)
                        && b.acquireRun(request("b", later, LONG)).status() == AcquireResult.Status.BUSY);
        assertThat(a.releaseRun(held, Duration.ZERO)).isTrue();
    }

    @Test
    void aCooldownAfterReleaseHoldsOffTheNextRunUntilItEnds() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        RunLeaseRequest held = request("a", T, LONG);
        assertThat(a.acquireRun(held).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(a.releaseRun(held, Duration.ofSeconds(2))).isTrue();

        Instant later = nextT();
        assertThat(b.acquireRun(request("b", later, LONG)).status()).isEqualTo(AcquireResult.Status.COOLDOWN);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> b.acquireRun(request("b", later, LONG)).status() == AcquireResult.Status.ACQUIRED);
    }

    @Test
    void fencingTokensGrowWithEveryAcquisitionWhereSupported() {
        LeaseStore a = node("a");
        LeaseStore b = node("b");
        long previous = -1;
        for (int i = 0; i < 6; i++) {
            LeaseStore store = i % 2 == 0 ? a : b;
            RunLeaseRequest r = request(i % 2 == 0 ? "a" : "b", nextT(), LONG);
            AcquireResult result = store.acquireRun(r);
            assertThat(result.status()).isEqualTo(AcquireResult.Status.ACQUIRED);
            if (store.supportsFencing()) {
                assertThat(result.fencingToken()).isGreaterThan(previous);
                previous = result.fencingToken();
            } else {
                assertThat(result.fencingToken()).isEqualTo(-1);
            }
            assertThat(store.releaseRun(r, Duration.ZERO)).isTrue();
        }
    }

    @Test
    void aReleaseWakesAWatcherOnTheSameNode() throws Exception {
        LeaseStore a = node("a");
        RunLeaseRequest held = request("a", T, LONG);
        assertThat(a.acquireRun(held).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        // every store under contract overrides watchRunReleases (the default never signals)
        try (ReleaseWatch watch = a.watchRunReleases(job)) {
            Thread releaser = new Thread(() -> a.releaseRun(held, Duration.ZERO));
            releaser.start();
            boolean woken = false;
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!woken && System.nanoTime() < deadline) {
                woken = watch.await(Duration.ofSeconds(5));
            }
            releaser.join();
            assertThat(woken).isTrue();
        }
    }

    @Test
    void theHoldingNodeSeesItsLeaseAndRecentFiresNewestFirst() {
        LeaseStore a = node("a");
        Instant first = nextT();
        Instant second = nextT();
        whenOffered(a, RunHistory.class, history -> {
            RunLeaseRequest r1 = request("a", first, LONG);
            a.acquireRun(r1);
            a.releaseRun(r1, Duration.ZERO);
            assertThat(history.currentRunLease(job)).isEmpty();
            RunLeaseRequest r2 = request("a", second, LONG);
            a.acquireRun(r2);

            LeaseRecord lease = history.currentRunLease(job).orElseThrow();
            assertThat(lease.ownerToken()).isEqualTo(r2.ownerToken());
            assertThat(lease.nodeId()).isEqualTo("a");
            assertThat(lease.nominalFireTime()).isEqualTo(second);
            assertThat(lease.expiresIn()).isPositive();
            assertThat(history.recentFires(job, 5)).extracting(LeaseRecord::nominalFireTime)
                    .containsExactly(second, first);
            assertThat(history.recentFires(job, 1)).hasSize(1);
        });
    }

    @Test
    void forceReleaseFreesAStuckLease() {
        LeaseStore a = node("a");
        RunLeaseRequest stuck = request("a", T, LONG);
        a.acquireRun(stuck);
        whenOffered(a, OperatorControl.class, force -> {
            assertThat(force.forceReleaseRun(job)).isTrue();
            assertThat(force.forceReleaseRun(job)).isFalse();
            assertThat(a.acquireRun(request("a", nextT(), LONG)).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        });
    }

    @Test
    void racingNodesOnOneFireTimeYieldExactlyOneWinner() throws Exception {
        int nodes = 6;
        List<LeaseStore> stores = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            stores.add(node("n" + n));
        }
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            for (int round = 0; round < 8; round++) {
                Instant t = nextT();
                CountDownLatch start = new CountDownLatch(1);
                List<Future<RunLeaseRequest>> attempts = new ArrayList<>();
                for (int n = 0; n < nodes; n++) {
                    LeaseStore store = stores.get(n);
                    RunLeaseRequest r = request("n" + n, t, LONG);
                    attempts.add(pool.submit(() -> {
                        start.await();
                        return store.acquireRun(r).status() == AcquireResult.Status.ACQUIRED ? r : null;
                    }));
                }
                start.countDown();
                List<Integer> winners = new ArrayList<>();
                for (int n = 0; n < nodes; n++) {
                    RunLeaseRequest won = attempts.get(n).get(10, TimeUnit.SECONDS);
                    if (won != null) {
                        winners.add(n);
                        assertThat(stores.get(n).releaseRun(won, Duration.ZERO)).isTrue();
                    }
                }
                assertThat(winners).as("winners of round %d", round).hasSize(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
