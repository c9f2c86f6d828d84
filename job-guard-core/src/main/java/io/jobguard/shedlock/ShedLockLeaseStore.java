package io.jobguard.shedlock;

import io.jobguard.internal.LocalSignals;
import io.jobguard.internal.TimeBounds;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunLeaseRequest;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import io.jobguard.internal.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A {@link LeaseStore} on any ShedLock {@link LockProvider} (JDBC, Mongo, ZooKeeper, ...), so that
 * {@code @ClusterSingleton} jobs run on those backends for the singleton path. For job J in
 * namespace N and fire time T it uses three ShedLock locks:
 * <ul>
 *   <li>{@code N:J:run}, the run lease: lockAtMostFor = the lease;</li>
 *   <li>{@code N:J:fired:<T millis>}, the fire-time marker: lockAtMostFor = lockAtLeastFor = lease
 *       plus marker retention (at least the skew tolerance), never unlocked;</li>
 *   <li>{@code N:J:cooldown}: held for the fixed-delay gap after a run ends.</li>
 * </ul>
 * Guarantee: for each T at most one node starts J, and no two runs of J overlap while the run lock
 * lives, as far as the provider's own locks are exclusive. Fencing tokens and batch locks are not
 * available ({@link #supportsFencing()} is {@code false}, tokens are -1).
 *
 * <p>Limits, because ShedLock's SPI is smaller than the Redis store's:
 * <ul>
 *   <li>Acquisition is several steps, not one atomic script (see the notes in the source): run
 *       lock, a probe of the cool-down lock, then the marker. The marker is taken last, only by the
 *       node that holds the run lock, so a refused (BUSY) attempt never burns the fire time and a
 *       WAIT retry of the same T can still run it.</li>
 *   <li>Renewal uses {@link SimpleLock#extend(Duration, Duration)}; with a provider that cannot
 *       extend, {@link #renewRun(RunLeaseRequest)} reports {@code false} (lease lost), so set
 *       leases longer than the runs.</li>
 *   <li>Owner-only release is as strong as the provider's unlock (ShedLock's JDBC unlock is not
 *       owner-checked); this store never unlocks a run lock whose lease it knows has passed.</li>
 *   <li>The store offers no optional capability. No {@code RunHistory} or {@code OperatorControl}, because
 *       the SPI cannot read or delete another node's locks, and a view of this node's own leases would be a
 *       wrong cluster-wide answer; no {@code RunRecovery} (it keeps no run record: nothing is recovered), no
 *       {@code OutcomeRecording} (no outcomes on a history) and no {@code FleetView} (no schedules or clock
 *       leads shared). Its release watch sees this store's own releases.</li>
 *   <li>{@link #serverTime()} is the given clock, which is also the {@code createdAt} of every lock
 *       configuration; prefer a provider that measures time on its server (JDBC
 *       {@code usingDbTime()}), so that skewed nodes agree on expiry.</li>
 *   <li>Releases wake waiters of this store instance at once; waiters on other nodes poll every
 *       {@code pollInterval}.</li>
 *   <li>Each fire time leaves a marker lock that the SPI cannot delete (ShedLock's JDBC providers keep its
 *       row forever); create the store with a {@link MarkerReaper} ({@link JdbcMarkerReaper}) to delete
 *       expired markers and keep the table bounded.</li>
 *   <li>Lock names are up to {@code namespace + job + 21} characters: widen ShedLock's default
 *       {@code name VARCHAR(64)} column where they are longer.</li>
 * </ul>
 */
public final class ShedLockLeaseStore implements LeaseStore {

    /*
     * Why once-per-T holds although acquisition takes several steps: the marker lock for T is the
     * only thing that admits a run for T, and a ShedLock lock is taken by at most one caller until
     * it expires. It lives lockAtMostFor = lease + retention from acquisition and is extended with
     * the run lease on every renewal, so it outlives the run by at least the retention (>= skew
     * tolerance); a node whose clock lags fires T at most that much later and finds it held. A node
     * that crashes after taking the run lock but before the marker leaves T untaken and blocks J
     * only until the run lock expires. The run lock is taken before the marker so that a node
     * refused as BUSY has not consumed T (a marker cannot be given back before its lockAtLeastFor).
     */

    private static final Logger log = LoggerFactory.getLogger(ShedLockLeaseStore.class);
    /** Expired markers are deleted after every this many acquisitions (when a reaper is configured). */
    static final int REAP_EVERY = 100;
    /** Markers are deleted only this long after they expired: room for clock differences between nodes. */
    static final Duration REAP_GRACE = Duration.ofMinutes(1);

    private final LockProvider provider;
    private final Clock clock;
    private final RateLimitedLog failures;
    private final LocalSignals<JobId> signals;
    private final ConcurrentHashMap<String, HeldRun> held = new ConcurrentHashMap<>();
    private volatile boolean extendUnsupportedLogged;
    private final MarkerReaper reaper;
    private final AtomicLong acquisitions = new AtomicLong();

    private ShedLockLeaseStore(LockProvider provider, Clock clock, Duration pollInterval, MarkerReaper reaper) {
        this.failures = new RateLimitedLog(clock, Duration.ofMinutes(1));
        this.provider = provider;
        this.clock = clock;
        this.signals = new LocalSignals<>(pollInterval);
        this.reaper = reaper;
    }

    /**
     * Creates a store on the system clock (UTC) that polls every second while waiting.
     *
     * @param provider the ShedLock provider holding the locks
     * @return the store
     * @throws NullPointerException if the provider is null
     */
    public static ShedLockLeaseStore create(LockProvider provider) {
        return create(provider, Clock.systemUTC(), Duration.ofSeconds(1));
    }

    /**
     * Creates a store.
     *
     * @param provider     the ShedLock provider holding the locks
     * @param clock        the {@code createdAt} of lock configurations and {@link #serverTime()}
     * @param pollInterval the longest a WAIT firing sleeps before asking the provider again
     * @return the store
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the poll interval is not positive or longer than 3,650 days
     */
    public static ShedLockLeaseStore create(LockProvider provider, Clock clock, Duration pollInterval) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(clock, "clock");
        TimeBounds.positive(pollInterval, "ShedLockLeaseStore pollInterval");
        return new ShedLockLeaseStore(provider, clock, pollInterval, null);
    }

    /**
     * Creates a store that keeps the lock table bounded: after every {@value #REAP_EVERY} acquisitions it has
     * {@code reaper} delete the acquiring job's fire-time markers that expired more than a minute ago (by
     * {@code clock}). Without a reaper, ShedLock's JDBC providers keep one row per fire time forever.
     *
     * @param provider     the ShedLock provider holding the locks
     * @param clock        the {@code createdAt} of lock configurations and {@link #serverTime()}
     * @param pollInterval the longest a WAIT firing sleeps before asking the provider again
     * @param reaper       deletes expired markers, for example {@link JdbcMarkerReaper}
     * @return the store
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the poll interval is not positive
     */
    public static ShedLockLeaseStore create(LockProvider provider, Clock clock, Duration pollInterval,
                                            MarkerReaper reaper) {
        Objects.requireNonNull(reaper, "reaper");
        ShedLockLeaseStore checked = create(provider, clock, pollInterval);
        return new ShedLockLeaseStore(checked.provider, checked.clock, pollInterval, reaper);
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest r) {
        HeldRun mine = held.get(r.ownerToken());
        if (mine != null && mine.alive()) {
            return AcquireResult.acquired(-1, mine.record.acquiredAt());
        }
        long started = System.nanoTime();
        Instant now = clock.instant();
        Optional<SimpleLock> run = provider.lock(config(now, runName(r.job()), r.lease(), Duration.ZERO));
        if (run.isEmpty()) {
            return AcquireResult.refused(AcquireResult.Status.BUSY, null, null);
        }
        boolean granted = false;
        try {
            Optional<SimpleLock> probe = provider.lock(config(now, cooldownName(r.job()), r.lease(), Duration.ZERO));
            if (probe.isEmpty()) {
                return AcquireResult.refused(AcquireResult.Status.COOLDOWN, null, null);
            }
            probe.get().unlock();
            Optional<SimpleLock> marker = provider.lock(config(now, markerName(r), r.markerTtl(), r.markerTtl()));
            if (marker.isEmpty()) {
                return AcquireResult.refused(AcquireResult.Status.ALREADY_RAN, null, null);
            }
            LeaseRecord record = new LeaseRecord(r.ownerToken(), r.nodeId(), r.nominalFireTime(), now, -1, null, false,
                    "shedlock run of " + r.job() + " by " + r.nodeId());
            held.put(r.ownerToken(), new HeldRun(r, record, run.get(), marker.get(), started + r.lease().toNanos()));
            granted = true;
            reapIfDue(r.job(), now);
            return AcquireResult.acquired(-1, now);
        } finally {
            if (!granted) {
                unlockQuietly(run.get(), r);
            }
        }
    }

    @Override
    public boolean renewRun(RunLeaseRequest r) {
        return whileAlive(held.get(r.ownerToken()), run -> extend(run, r));
    }

    @Override
    public boolean releaseRun(RunLeaseRequest r, Duration cooldown) {
        boolean released = whileAlive(held.remove(r.ownerToken()), run -> {
            if (!cooldown.isZero() && !cooldown.isNegative()) {
                Optional<SimpleLock> gap = provider.lock(config(clock.instant(), cooldownName(r.job()), cooldown, cooldown));
                gap.ifPresent(SimpleLock::unlock);
            }
            run.deadline = System.nanoTime();
            run.run.unlock();
            return true;
        });
        if (released) {
            signals.signal(r.job());
        }
        return released;
    }

    /**
     * Runs {@code step} on a run this store holds, under the run's monitor, only while its lease lives:
     * extending or unlocking after it passed could act on a lock another node took since ours expired.
     *
     * @return false if the run is not held or its lease has passed, else what {@code step} answered
     */
    private static boolean whileAlive(HeldRun run, Predicate<HeldRun> step) {
        if (run == null) {
            return false;
        }
        synchronized (run) {
            return run.alive() && step.test(run);
        }
    }

    /** Extends the run lock by the lease and the marker by its TTL; false if the run lock was lost. */
    private boolean extend(HeldRun run, RunLeaseRequest r) {
        long started = System.nanoTime();
        Optional<SimpleLock> renewed;
        try {
            renewed = run.run.extend(r.lease(), Duration.ZERO);
        } catch (UnsupportedOperationException e) {
            if (!extendUnsupportedLogged) {
                extendUnsupportedLogged = true;
                log.warn("job-guard: job '{}' T={} node={}: ShedLock provider {} cannot extend locks, so run "
                        + "leases cannot be kept alive; use leases longer than the runs", r.job(),
                        r.nominalFireTime(), r.nodeId(), provider);
            }
            return false;
        }
        if (renewed.isEmpty()) {
            run.deadline = started;
            return false;
        }
        run.run = renewed.get();
        run.deadline = started + r.lease().toNanos();
        try {
            run.marker.extend(r.markerTtl(), r.markerTtl()).ifPresent(m -> run.marker = m);
        } catch (RuntimeException e) {
            // The marker still lives lease + retention from acquisition; the run lease is what renewal guards.
            failures.warn(log, "marker|" + r.job(), "job-guard: job '{}' T={} fire-time marker not extended "
                    + "(it expires lease + retention after acquisition): {}", r.job(), r.nominalFireTime(),
                    RateLimitedLog.causeChain(e));
        }
        return true;
    }

    @Override
    public ReleaseWatch watchRunReleases(JobId job) {
        return signals.watch(job);
    }

    /** {@inheritDoc} The ShedLock lock's name. */
    @Override
    public String blockingKey(RunLeaseRequest r, AcquireResult.Status status) {
        return "ShedLock lock " + switch (status) {
            case ALREADY_RAN -> markerName(r);
            case COOLDOWN -> cooldownName(r.job());
            default -> runName(r.job());
        };
    }

    @Override
    public Instant serverTime() {
        return clock.instant();
    }

    @Override
    public boolean supportsFencing() {
        return false;
    }

    /** Forgets this store's local view; the provider is not closed and held locks expire by their lease. */
    @Override
    public void close() {
        held.clear();
    }

    @Override
    public String toString() {
        return "ShedLockLeaseStore[" + provider + "]";
    }

    private void reapIfDue(JobId job, Instant now) {
        if (reaper == null || acquisitions.incrementAndGet() % REAP_EVERY != 0) {
            return;
        }
        try {
            int deleted = reaper.deleteExpired(job.namespace() + ":" + job.name() + ":fired:", now.minus(REAP_GRACE));
            log.debug("job-guard: job '{}' {} expired fire-time markers deleted", job, deleted);
        } catch (RuntimeException e) {
            // Only the table's size is at stake; the next round tries again.
            log.debug("job-guard: job '{}' expired fire-time markers not deleted: {}", job, e.toString());
        }
    }

    private static void unlockQuietly(SimpleLock lock, RunLeaseRequest r) {
        try {
            lock.unlock();
        } catch (RuntimeException e) {
            log.warn("job-guard: job '{}' T={} node={} could not unlock its ShedLock run lock ({}); it expires by "
                    + "its lease", r.job(), r.nominalFireTime(), r.nodeId(), e.toString());
        }
    }

    private static LockConfiguration config(Instant now, String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(now, name, atMost, atLeast);
    }

    static String runName(JobId job) {
        return job.namespace() + ":" + job.name() + ":run";
    }

    static String cooldownName(JobId job) {
        return job.namespace() + ":" + job.name() + ":cooldown";
    }

    static String markerName(RunLeaseRequest r) {
        return r.job().namespace() + ":" + r.job().name() + ":fired:" + r.nominalFireTime().toEpochMilli();
    }

    /** One run this store holds; mutable fields are guarded by the instance's monitor. */
    private static final class HeldRun {
        private final RunLeaseRequest request;
        private final LeaseRecord record;
        private SimpleLock run;
        private SimpleLock marker;
        private volatile long deadline;

        HeldRun(RunLeaseRequest request, LeaseRecord record, SimpleLock run, SimpleLock marker, long deadline) {
            this.request = request;
            this.record = record;
            this.run = run;
            this.marker = marker;
            this.deadline = deadline;
        }

        boolean alive() {
            return System.nanoTime() - deadline < 0;
        }
    }
}
