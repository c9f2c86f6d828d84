package io.jobguard.internal.redis.batch;

import io.jobguard.batch.BatchConflict;
import io.jobguard.batch.BatchLease;
import io.jobguard.internal.KeepAlive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/** A batch lease held in Redis: its keys point at its token, and one record per key base carries the TTL. */
final class RedisBatchLease implements BatchLease {

    private static final Logger log = LoggerFactory.getLogger(RedisBatchLease.class);

    private final BatchLockEngine locks;
    private final String namespace;
    private final String token;
    private final String value;
    private final long fence;
    private final String acquiredAt;
    private final Duration lease;
    private final List<BatchPlan.Chunk> chunks;
    private final Set<String> keys;
    /** Key bases (slots) where this lease has its record; one in the default mode. */
    private final Set<String> recordBases;
    /** Key bases whose hash held this lease's keys alone at its last call there (see batch-acquire.lua). */
    private final Set<String> aloneBases;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile long validUntilNanos;
    private volatile KeepAlive.Handle keepAlive;

    public RedisBatchLease(BatchLockEngine locks, BatchPlan plan, String token, String value, String fence,
                    String acquiredAt, Duration lease, long startNanos, Set<String> recordBases,
                    Set<String> aloneBases) {
        this.locks = locks;
        this.namespace = plan.namespace();
        this.token = token;
        this.value = value;
        this.fence = Long.parseLong(fence);
        this.acquiredAt = acquiredAt;
        this.lease = lease;
        this.chunks = new ArrayList<>(plan.chunks());
        this.keys = new LinkedHashSet<>(plan.keys());
        this.recordBases = new LinkedHashSet<>(recordBases);
        this.aloneBases = new LinkedHashSet<>(aloneBases);
        this.validUntilNanos = startNanos + lease.toNanos();
    }

    void keepAlive(KeepAlive.Handle handle) {
        this.keepAlive = handle;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public long fencingToken() {
        return fence;
    }

    @Override
    public synchronized int keyCount() {
        return keys.size();
    }

    @Override
    public synchronized Set<String> keys() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(keys));
    }

    @Override
    public Duration lease() {
        return lease;
    }

    @Override
    public boolean isValid() {
        return !closed.get() && !lost.get() && System.nanoTime() - validUntilNanos < 0;
    }

    @Override
    public synchronized boolean renew() {
        if (closed.get()) {
            return false;
        }
        long start = System.nanoTime();
        int lostBases = locks.renew(namespace, recordBases, token, value, BatchLockEngine.millis(lease));
        if (lostBases == 0) {
            validUntilNanos = start + lease.toNanos();
            return true;
        }
        log.warn("job-guard: batch lease in namespace '{}' (fencing token {}, node {}, {} keys) expired in {} of {} slots",
                namespace, fence, locks.config().nodeId(), keys.size(), lostBases, recordBases.size());
        markLost();
        return false;
    }

    /** Called once when renewal (keep-alive or explicit) finds keys gone. */
    void markLost() {
        if (!closed.get() && lost.compareAndSet(false, true)) {
            locks.leaseLost(this);
        }
    }

    @Override
    public synchronized List<BatchConflict> tryExtend(Collection<String> more) {
        if (!isValid()) {
            throw new IllegalStateException("batch lease in namespace '" + namespace + "' is no longer valid");
        }
        BatchPlan all = locks.plan(namespace, more, 0);
        List<String> fresh = new ArrayList<>();
        for (String key : all.keys()) {
            if (!keys.contains(key)) {
                fresh.add(key);
            }
        }
        if (fresh.isEmpty()) {
            return List.of();
        }
        BatchPlan plan = locks.plan(namespace, fresh, keys.size());
        BatchChunks.Outcome outcome = locks.extend(plan, token, fence, acquiredAt, BatchLockEngine.millis(lease),
                recordBases, aloneBases);
        if (outcome.leaseGone()) {
            markLost();
            throw new IllegalStateException("batch lease in namespace '" + namespace + "' (fencing token " + fence
                    + ") expired; it cannot be extended");
        }
        List<BatchConflict> conflicts = outcome.conflicts();
        if (conflicts.isEmpty()) {
            chunks.addAll(plan.chunks());
            keys.addAll(plan.keys());
        }
        return conflicts;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        KeepAlive.Handle handle = keepAlive;
        if (handle != null) {
            handle.cancel();
        }
        List<BatchPlan.Chunk> toRelease;
        Set<String> bases;
        Set<String> alone;
        synchronized (this) {
            toRelease = List.copyOf(chunks);
            bases = Set.copyOf(recordBases);
            alone = Set.copyOf(aloneBases);
        }
        locks.release(namespace, toRelease, bases, alone, token, value);
    }

    @Override
    public String toString() {
        return "BatchLease[" + namespace + ", fencingToken=" + fence + ", keys=" + keyCount() + "]";
    }
}
