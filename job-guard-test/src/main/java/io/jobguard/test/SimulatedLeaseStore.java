package io.jobguard.test;

import io.jobguard.memory.InMemoryLeaseStore;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.OutcomeRecording;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A {@link LeaseStore} for tests in which each scenario a cluster can put a job in is one call. The scenarios: another
 * node ran a fire time or holds the lease ({@link #anotherNode}), the store is unreachable ({@link #down()}), a running job's
 * lease is lost ({@link #loseLease}) and the store loses its history ({@link #loseHistory()}). Between scenarios it
 * answers as {@link InMemoryLeaseStore} does (which it wraps): one atomic step per acquire, owner-checked renew and
 * release, fencing tokens that only grow. Its time is the {@link MutableClock} it was made with. Thread-safe.
 *
 * <p>Of the optional capabilities it offers {@link RunHistory} and {@link OutcomeRecording}, so that
 * {@link #history(String)} shows how each fire time ended; it keeps no run record (no recovery of missed fire times)
 * and no fleet view. The scenario methods name jobs within {@link #namespace()}, the namespace of the engine it
 * serves.
 */
public final class SimulatedLeaseStore implements LeaseStore, RunHistory, OutcomeRecording {

    private final String namespace;
    private final MutableClock clock;
    private final Object lock = new Object();
    /** Replaced by {@link #loseHistory()}, as a store restarted empty. Guarded by {@code lock}. */
    private InMemoryLeaseStore leases;
    /** Each job's fire times with their outcomes, newest first. Guarded by {@code lock}. */
    private final Map<JobId, Deque<FireEntry>> fires = new HashMap<>();
    /** When each job's first request after a history loss came (when the loss was noticed). Guarded by {@code lock}. */
    private final Map<JobId, Instant> lossNoticed = new HashMap<>();
    private boolean historyLost;
    private volatile boolean down;

    private SimulatedLeaseStore(String namespace, MutableClock clock) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.leases = InMemoryLeaseStore.create(clock);
    }

    /**
     * Creates a store whose scenarios name jobs of {@code namespace}, on {@code clock}.
     *
     * @param namespace the namespace of the engine this store serves ({@code JobGuardConfig#namespace()})
     * @param clock     the store's time
     * @return the store
     * @throws NullPointerException if an argument is null
     */
    public static SimulatedLeaseStore create(String namespace, MutableClock clock) {
        return new SimulatedLeaseStore(namespace, clock);
    }

    /**
     * The namespace whose jobs the scenario methods name.
     *
     * @return the namespace
     */
    public String namespace() {
        return namespace;
    }

    /**
     * The store's time.
     *
     * @return the clock
     */
    public MutableClock clock() {
        return clock;
    }

    /**
     * Another node of the cluster, which takes fire times and leases in this store as a real node would.
     *
     * @param nodeId the other node's id (not this engine's)
     * @return the node
     * @throws NullPointerException if {@code nodeId} is null
     */
    public AnotherNode anotherNode(String nodeId) {
        return new AnotherNode(this, Objects.requireNonNull(nodeId, "nodeId"));
    }

    /**
     * Makes every call of the store fail with {@link LeaseStoreException} until {@link #up()}, as a store that cannot
     * be reached: a firing is then refused {@code STORE_ERROR} and its job does not run (unless the engine's
     * {@code StoreFailurePolicy} is {@code RUN}). Leases held stay held.
     *
     * @return this store
     */
    public SimulatedLeaseStore down() {
        down = true;
        return this;
    }

    /**
     * Ends {@link #down()}: calls are answered again, from the state the store had.
     *
     * @return this store
     */
    public SimulatedLeaseStore up() {
        down = false;
        return this;
    }

    /**
     * Takes away the run lease of {@code job} from whoever holds it, as when it expired in the store (a stalled
     * node, a cut link): the holder's next renewal and its release are refused, so the engine of the holder flags
     * the run's lease lost ({@code RunContext#isLeaseLost()}) at its next renewal, a third of the lease after the
     * last one. The fire time stays taken. {@link JobGuardTester#loseLease(String)} also waits until the engine knows.
     *
     * @param job the job name
     * @return {@code true} if a lease was held and is now lost
     */
    public boolean loseLease(String job) {
        synchronized (lock) {
            return leases.forceReleaseRun(jobId(job));
        }
    }

    /**
     * Loses everything the store held, as a Redis restarted without persistence or flushed: fire-time markers, run
     * leases (their holders' renewals are refused) and the fire histories. Each job's fire times earlier than its
     * first request after the loss plus the request's {@code historyLossWindow} (the engine's skew tolerance) may
     * have run before the loss and are refused {@code HISTORY_LOST}; later fire times run as usual. Fencing tokens
     * start again from the lowest: this store does not simulate fencing across a loss.
     *
     * @return this store
     */
    public SimulatedLeaseStore loseHistory() {
        synchronized (lock) {
            leases = InMemoryLeaseStore.create(clock);
            fires.clear();
            lossNoticed.clear();
            historyLost = true;
        }
        return this;
    }

    /**
     * The fire times of {@code job} with their outcomes, newest first: {@code RUNNING} while a run holds its lease,
     * then how it ended (e.g. {@code RAN}, {@code FAILED}); fire times decided without a run ({@code HISTORY_LOST})
     * with their outcome. Refusals of a fire time another node took ({@code ALREADY_RAN}, {@code BUSY},
     * {@code STORE_ERROR}) are not in the store's history: {@link JobGuardTester#events(String)} has them.
     *
     * @param job the job name
     * @return the entries
     */
    public List<FireEntry> history(String job) {
        return fireHistory(jobId(job), Integer.MAX_VALUE);
    }

    JobId jobId(String job) {
        return new JobId(namespace, Objects.requireNonNull(job, "job"));
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest r) {
        reachable();
        return acquire(r);
    }

    /** An acquire as the store answers it, for this engine and for a simulated node alike. */
    AcquireResult acquire(RunLeaseRequest r) {
        synchronized (lock) {
            Instant refusedUntil = historyLossRefusesUntil(r);
            if (r.nominalFireTime().isBefore(refusedUntil)) {
                return AcquireResult.refused(AcquireResult.Status.HISTORY_LOST, null,
                        nonNegative(Duration.between(clock.instant(), refusedUntil)));
            }
            AcquireResult result = leases.acquireRun(r);
            if (result.status() == AcquireResult.Status.ACQUIRED && !isRecorded(r)) {
                record(r.job(), new FireEntry(r.nominalFireTime(), r.nodeId(), "RUNNING", null, result.acquiredAt(),
                        result.fencingToken()), r.historySize());
            }
            return result;
        }
    }

    private Instant historyLossRefusesUntil(RunLeaseRequest r) {
        if (!historyLost) {
            return Instant.MIN;
        }
        return lossNoticed.computeIfAbsent(r.job(), j -> clock.instant()).plus(r.historyLossWindow());
    }

    private boolean isRecorded(RunLeaseRequest r) {
        Deque<FireEntry> entries = fires.get(r.job());
        return entries != null && entries.stream().anyMatch(e -> e.nominalFireTime().equals(r.nominalFireTime())
                && e.node().equals(r.nodeId()) && "RUNNING".equals(e.outcome()));
    }

    @Override
    public boolean renewRun(RunLeaseRequest r) {
        reachable();
        synchronized (lock) {
            return leases.renewRun(r);
        }
    }

    @Override
    public boolean releaseRun(RunLeaseRequest r, Duration cooldown) {
        reachable();
        return release(r, cooldown, "UNKNOWN", null);
    }

    @Override
    public CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest r, Duration cooldown, RunEnd end) {
        try {
            reachable();
            return CompletableFuture.completedFuture(release(r, cooldown, end.outcome(), end.runTime()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Releases the lease and writes the run's outcome on its history entry, as one step. */
    boolean release(RunLeaseRequest r, Duration cooldown, String outcome, Duration runTime) {
        synchronized (lock) {
            boolean released = leases.releaseRun(r, cooldown);
            Deque<FireEntry> entries = fires.get(r.job());
            if (entries != null) {
                entries.stream()
                        .filter(e -> e.nominalFireTime().equals(r.nominalFireTime()) && e.node().equals(r.nodeId())
                                && "RUNNING".equals(e.outcome()))
                        .findFirst()
                        .ifPresent(e -> replace(entries, e, new FireEntry(e.nominalFireTime(), e.node(), outcome,
                                runTime, e.at(), e.fencingToken())));
            }
            return released;
        }
    }

    @Override
    public void recordOutcome(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize) {
        reachable();
        synchronized (lock) {
            Deque<FireEntry> entries = fires.get(job);
            if (entries != null && entries.stream().anyMatch(e -> e.nominalFireTime().equals(nominalFireTime)
                    && outcome.equals(e.outcome()))) {
                return;
            }
            record(job, new FireEntry(nominalFireTime, nodeId, outcome, null, clock.instant(), -1), historySize);
        }
    }

    private void record(JobId job, FireEntry entry, int historySize) {
        Deque<FireEntry> entries = fires.computeIfAbsent(job, j -> new ArrayDeque<>());
        entries.addFirst(entry);
        while (entries.size() > Math.max(1, historySize)) {
            entries.removeLast();
        }
    }

    private static void replace(Deque<FireEntry> entries, FireEntry old, FireEntry updated) {
        List<FireEntry> copy = entries.stream().map(e -> e == old ? updated : e).toList();
        entries.clear();
        entries.addAll(copy);
    }

    @Override
    public ReleaseWatch watchRunReleases(JobId job) {
        reachable();
        synchronized (lock) {
            return leases.watchRunReleases(job);
        }
    }

    @Override
    public Instant serverTime() {
        reachable();
        return clock.instant();
    }

    @Override
    public boolean supportsFencing() {
        return true;
    }

    @Override
    public String blockingKey(RunLeaseRequest r, AcquireResult.Status status) {
        synchronized (lock) {
            return "simulated: " + leases.blockingKey(r, status);
        }
    }

    @Override
    public Optional<LeaseRecord> currentRunLease(JobId job) {
        reachable();
        synchronized (lock) {
            return leases.currentRunLease(job);
        }
    }

    @Override
    public List<LeaseRecord> recentFires(JobId job, int max) {
        reachable();
        synchronized (lock) {
            return leases.recentFires(job, max);
        }
    }

    @Override
    public List<FireEntry> fireHistory(JobId job, int max) {
        synchronized (lock) {
            Deque<FireEntry> entries = fires.get(job);
            return entries == null ? List.of() : entries.stream().limit(Math.max(0, max)).toList();
        }
    }

    /** Nothing to release: the simulated state lives on the heap only. */
    @Override
    public void close() {
        // no threads, no connections
    }

    @Override
    public String toString() {
        return "SimulatedLeaseStore[namespace=" + namespace + (down ? ", down" : "") + "]";
    }

    private void reachable() {
        if (down) {
            throw new LeaseStoreException("simulated: the lease store is down (SimulatedLeaseStore.down())");
        }
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
