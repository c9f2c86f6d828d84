package io.jobguard.memory;

import io.jobguard.internal.LocalSignals;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.OperatorControl;
import io.jobguard.store.RunHistory;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunLeaseRequest;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A {@link LeaseStore} inside one JVM, for single-node applications and tests. It keeps the
 * semantics of the Redis store: one atomic step checks the fire-time marker, the run lease and the
 * cool-down and writes lease and marker; renew and release are owner-checked; leases, markers and
 * cool-downs expire by a monotonic clock ({@link System#nanoTime()}), never by the wall clock;
 * fencing tokens come from a per-job counter that only grows; releases wake waiters through
 * in-JVM signals. Thread-safe.
 *
 * <p>Of the optional capabilities it offers {@link RunHistory} (its fire history has no outcomes) and
 * {@link OperatorControl}'s force release; it cannot pause jobs (pausing keeps that capability's defaults). It
 * lacks {@code RunRecovery} (it keeps no run record: nothing is recovered), {@code OutcomeRecording} (no outcomes on
 * its history) and {@code FleetView} (one JVM has no fleet to share schedules or clock leads with).
 *
 * <p>It guards nothing across processes: two JVMs with an in-memory store each run every firing.
 * It is therefore never chosen silently: the Spring module uses it only when the application sets
 * {@code jobguard.store=in-memory} explicitly.
 */
public final class InMemoryLeaseStore implements LeaseStore, RunHistory, OperatorControl {

    private final Clock clock;
    private final LongSupplier ticker;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<JobId, JobState> jobs = new HashMap<>();
    private final LocalSignals<JobId> signals = new LocalSignals<>(Duration.ofDays(365));

    private InMemoryLeaseStore(Clock clock, LongSupplier ticker) {
        this.clock = clock;
        this.ticker = ticker;
    }

    /**
     * Creates a store whose acquisition times come from the system clock (UTC).
     *
     * @return the store
     */
    public static InMemoryLeaseStore create() {
        return create(Clock.systemUTC());
    }

    /**
     * Creates a store.
     *
     * @param clock where acquisition times and {@link #serverTime()} come from (expiry never reads it)
     * @return the store
     * @throws NullPointerException if the clock is null
     */
    public static InMemoryLeaseStore create(Clock clock) {
        return new InMemoryLeaseStore(Objects.requireNonNull(clock, "clock"), System::nanoTime);
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest r) {
        return locked(r.job(), (job, now) -> acquire(job, now, r));
    }

    private AcquireResult acquire(JobState job, long now, RunLeaseRequest r) {
        long nominalFireTimeMillis = r.nominalFireTime().toEpochMilli();
        Entry marker = job.markers.get(nominalFireTimeMillis);
        if (marker != null) {
            if (marker.owns(r.ownerToken()) && job.run != null && job.run.owns(r.ownerToken())) {
                return AcquireResult.acquired(job.run.record.fencingToken(), job.run.record.acquiredAt());
            }
            return refused(AcquireResult.Status.ALREADY_RAN, marker, now);
        }
        if (job.run != null && !job.run.owns(r.ownerToken())) {
            return refused(AcquireResult.Status.BUSY, job.run, now);
        }
        if (job.cooldown != null) {
            return refused(AcquireResult.Status.COOLDOWN, job.cooldown, now);
        }
        long fence = ++job.fence;
        Instant acquiredAt = clock.instant();
        String raw = "jg1|" + r.ownerToken() + "|" + nominalFireTimeMillis + "|" + acquiredAt.toEpochMilli() + "|" + fence + "|"
                + r.nodeId();
        LeaseRecord record = new LeaseRecord(r.ownerToken(), r.nodeId(), r.nominalFireTime(), acquiredAt, fence,
                null, false, raw);
        job.run = new Entry(record, now + r.lease().toNanos());
        job.markers.put(nominalFireTimeMillis, new Entry(record, now + r.markerTtl().toNanos()));
        if (r.historySize() > 0) {
            job.history.addFirst(record);
            while (job.history.size() > r.historySize()) {
                job.history.removeLast();
            }
        }
        return AcquireResult.acquired(fence, acquiredAt);
    }

    @Override
    public boolean renewRun(RunLeaseRequest r) {
        return locked(r.job(), (job, now) -> {
            if (job.run == null || !job.run.owns(r.ownerToken())) {
                return false;
            }
            job.run.deadline = now + r.lease().toNanos();
            extend(job.markers.get(r.nominalFireTime().toEpochMilli()), now + r.markerTtl().toNanos());
            return true;
        });
    }

    @Override
    public boolean releaseRun(RunLeaseRequest r, Duration cooldown) {
        return locked(r.job(), (job, now) -> {
            if (job.run == null || !job.run.owns(r.ownerToken())) {
                return false;
            }
            if (!cooldown.isZero() && !cooldown.isNegative()) {
                job.cooldown = new Entry(job.run.record, now + cooldown.toNanos());
            }
            job.run = null;
            extend(job.markers.get(r.nominalFireTime().toEpochMilli()), now + r.markerRetention().toNanos());
            signals.signal(r.job());
            return true;
        });
    }

    @Override
    public ReleaseWatch watchRunReleases(JobId job) {
        Objects.requireNonNull(job, "job");
        return signals.watch(job);
    }

    /** {@inheritDoc} A description of the in-memory entry. */
    @Override
    public String blockingKey(RunLeaseRequest r, AcquireResult.Status status) {
        String entry = switch (status) {
            case ALREADY_RAN -> "fire-time marker of " + r.nominalFireTime();
            case COOLDOWN -> "cool-down";
            default -> "run lease";
        };
        return "the in-memory " + entry + " of " + r.job();
    }

    @Override
    public Optional<LeaseRecord> currentRunLease(JobId job) {
        return locked(job, (state, now) -> state.run == null ? Optional.empty()
                : Optional.of(state.run.record.withExpiresIn(state.run.remaining(now))));
    }

    @Override
    public List<LeaseRecord> recentFires(JobId job, int max) {
        return locked(job, (state, now) -> state.history.stream().limit(Math.max(0, max)).toList());
    }

    @Override
    public boolean forceReleaseRun(JobId job) {
        return locked(job, (state, now) -> {
            if (state.run == null) {
                return false;
            }
            state.run = null;
            signals.signal(job);
            return true;
        });
    }

    /** One step on a job's state, given the ticker's time. */
    @FunctionalInterface
    private interface Step<T> {
        T apply(JobState job, long now);
    }

    /** Runs {@code step} on the job's state (expired entries dropped first) under the store's lock. */
    private <T> T locked(JobId job, Step<T> step) {
        lock.lock();
        try {
            long now = ticker.getAsLong();
            return step.apply(state(job, now), now);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Instant serverTime() {
        return clock.instant();
    }

    @Override
    public boolean supportsFencing() {
        return true;
    }

    /** Nothing to release: the store holds no threads or connections. */
    @Override
    public void close() {
        // state lives on the heap only
    }

    @Override
    public String toString() {
        return "InMemoryLeaseStore";
    }

    /* Callers hold the lock. Expired entries are dropped on every access, so nothing expires late. */
    private JobState state(JobId id, long now) {
        JobState job = jobs.computeIfAbsent(id, j -> new JobState());
        if (job.run != null && job.run.expired(now)) {
            job.run = null;
        }
        if (job.cooldown != null && job.cooldown.expired(now)) {
            job.cooldown = null;
        }
        for (Iterator<Entry> it = job.markers.values().iterator(); it.hasNext(); ) {
            if (it.next().expired(now)) {
                it.remove();
            }
        }
        return job;
    }

    private static void extend(Entry marker, long deadline) {
        if (marker != null && marker.deadline - deadline < 0) {
            marker.deadline = deadline;
        }
    }

    private static AcquireResult refused(AcquireResult.Status status, Entry blocker, long now) {
        Duration ttl = blocker.remaining(now);
        return AcquireResult.refused(status, blocker.record.withExpiresIn(ttl), ttl);
    }

    private static final class JobState {
        private Entry run;
        private Entry cooldown;
        private final Map<Long, Entry> markers = new HashMap<>();
        private final ArrayDeque<LeaseRecord> history = new ArrayDeque<>();
        private long fence;
    }

    private static final class Entry {
        private final LeaseRecord record;
        private long deadline;

        Entry(LeaseRecord record, long deadline) {
            this.record = record;
            this.deadline = deadline;
        }

        boolean owns(String token) {
            return record.ownerToken().equals(token);
        }

        boolean expired(long now) {
            return now - deadline >= 0;
        }

        Duration remaining(long now) {
            return Duration.ofNanos(Math.max(0, deadline - now));
        }
    }
}
