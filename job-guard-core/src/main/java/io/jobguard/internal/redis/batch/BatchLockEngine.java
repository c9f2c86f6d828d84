package io.jobguard.internal.redis.batch;

import io.jobguard.GuardType;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchConflict;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLockEvent;
import io.jobguard.batch.BatchLockListener;
import io.jobguard.batch.BatchLocks;
import io.jobguard.batch.BatchRequest;
import io.jobguard.batch.BatchResult;
import io.jobguard.internal.KeepAlive;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LeaseValues;
import io.jobguard.internal.redis.ReleaseNotifications;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.ReleaseWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.zset.Tuple;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine behind {@code io.jobguard.redis.batch.RedisBatchLocks}: the chunk and bucket protocols, the waits,
 * the keep-alive and the listeners; see that class for what it guarantees.
 */
public final class BatchLockEngine implements BatchLocks {

    private static final Logger log = LoggerFactory.getLogger(BatchLockEngine.class);

    private final KeySchema schema;
    private final ScriptRunner runner;
    private final ReleaseNotifications notifications;
    private final KeepAlive keepAlive = new KeepAlive();
    private final BatchLockConfig config;
    private final List<BatchLockListener> listeners = new CopyOnWriteArrayList<>();
    /** Spread mode's bucket calls; threads are made when first needed and end after a minute idle. */
    private final ExecutorService bucketCalls;
    /** The key layout, chosen on first use (it may need Redis): never changes afterwards. */
    private volatile BatchLayout layout;

    /**
     * Creates the engine; nothing is sent to Redis before the first call.
     *
     * @param connectionFactory the Redis connections to use
     * @param keyPrefix         first segment of every key (checked by {@link KeySchema})
     * @param config            the settings
     */
    public BatchLockEngine(RedisConnectionFactory connectionFactory, String keyPrefix, BatchLockConfig config) {
        this.schema = new KeySchema(keyPrefix);
        this.runner = new ScriptRunner(connectionFactory);
        this.config = config;
        this.notifications = new ReleaseNotifications(connectionFactory, schema.releaseChannel());
        this.bucketCalls = BatchLayout.bucketCallPool(keyPrefix);
    }

    @Override
    public BatchAttempt tryAcquire(String namespace, Collection<String> keys, Duration lease) {
        BatchRequest request = new BatchRequest(namespace, keys, lease, GuardType.RETURN, Duration.ZERO,
                config.keepAlive());
        try {
            return acquire(request);
        } catch (InterruptedException e) {
            // RETURN never waits; only a store call can see the interrupt. Keep the flag for the caller.
            Thread.currentThread().interrupt();
            return BatchAttempt.refused(namespace, request.keys().size(), BatchResult.INTERRUPTED, List.of());
        }
    }

    @Override
    public BatchAttempt acquire(String namespace, Collection<String> keys, Duration lease, Duration waitFor)
            throws InterruptedException {
        return acquire(new BatchRequest(namespace, keys, lease, GuardType.WAIT, waitFor, config.keepAlive()));
    }

    @Override
    public BatchAttempt acquire(BatchRequest request) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        BatchPlan plan = plan(request.namespace(), request.keys(), 0);
        long start = System.nanoTime();
        BatchResult result = BatchResult.ERROR;
        try {
            BatchAttempt attempt = request.type() == GuardType.WAIT && !request.waitFor().isZero()
                    ? waitFor(plan, request, start)
                    : once(plan, request, UUID.randomUUID().toString(), false);
            result = attempt.result();
            return attempt;
        } catch (InterruptedException e) {
            result = BatchResult.INTERRUPTED;
            throw e;
        } finally {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            log.debug("job-guard: batch of {} keys in namespace '{}' on node {}: {} after {} ms", plan.keys().size(),
                    plan.namespace(), config.nodeId(), result, elapsed.toMillis());
            BatchLockEvent event = new BatchLockEvent(plan.namespace(), plan.keys().size(), result, elapsed);
            for (BatchLockListener listener : listeners) {
                try {
                    listener.onAcquisition(event);
                } catch (RuntimeException e) {
                    log.warn("job-guard: batch lock listener {} threw", listener, e);
                }
            }
        }
    }

    private BatchAttempt waitFor(BatchPlan plan, BatchRequest request, long start) throws InterruptedException {
        long deadline = start + request.waitFor().toNanos();
        String token = UUID.randomUUID().toString();
        try (ReleaseWatch watch = notifications.watch(schema.batchReleaseTopic(plan.namespace()))) {
            boolean ordered = false;
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for batch keys in '" + plan.namespace() + "'");
                }
                BatchAttempt attempt = once(plan, request, token, ordered);
                // Refused: re-try bucket by bucket in ascending order, so two overlapping waiters cannot
                // keep refusing each other (the one that takes the lowest shared bucket first wins).
                ordered = true;
                if (attempt.acquired()) {
                    return attempt;
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return BatchAttempt.refused(plan.namespace(), plan.keys().size(), BatchResult.TIMEOUT,
                            attempt.conflicts());
                }
                long pause = Math.min(remaining, config.waitPollInterval().toNanos());
                for (BatchConflict c : attempt.conflicts()) {
                    Duration ttl = c.holder().expiresIn();
                    if (ttl != null) {
                        // An expiring holder publishes nothing: look again just after its TTL.
                        pause = Math.min(pause, ttl.toNanos() + TimeUnit.MILLISECONDS.toNanos(1));
                    }
                }
                watch.await(Duration.ofNanos(Math.max(pause, TimeUnit.MILLISECONDS.toNanos(1))));
            }
        }
    }

    private BatchAttempt once(BatchPlan plan, BatchRequest request, String token, boolean ordered)
            throws InterruptedException {
        long start = System.nanoTime();
        long leaseMs = millis(request.lease());
        Set<String> recordBases = new LinkedHashSet<>();
        Set<String> aloneBases = new LinkedHashSet<>();
        BatchLayout l = layout();
        BatchChunks.Outcome outcome;
        try {
            if (l.spread()) {
                BatchScripts.Begin begin = l.scripts().begin(plan.namespace(), token, config.nodeId(), leaseMs);
                outcome = ordered
                        ? l.chunks().lock(plan, token, begin.fence(), begin.acquiredAt(), leaseMs, recordBases,
                                aloneBases, false)
                        : l.buckets().lock(plan, token, begin.fence(), begin.acquiredAt(), leaseMs, recordBases,
                                aloneBases, l.chunks().lockValue(token, begin.acquiredAt(), begin.fence()));
            } else {
                outcome = l.chunks().lock(plan, token, "", "", leaseMs, recordBases, aloneBases, false);
            }
        } catch (LeaseStoreException e) {
            if (Thread.currentThread().isInterrupted()) {
                Thread.interrupted();
                InterruptedException ie = new InterruptedException("interrupted during a batch store call");
                ie.initCause(e);
                throw ie;
            }
            throw e;
        }
        if (!outcome.conflicts().isEmpty()) {
            return BatchAttempt.refused(plan.namespace(), plan.keys().size(), BatchResult.CONFLICT, outcome.conflicts());
        }
        String value = l.chunks().lockValue(token, outcome.acquiredAt(), outcome.fence());
        RedisBatchLease lease = new RedisBatchLease(this, plan, token, value, outcome.fence(), outcome.acquiredAt(),
                request.lease(), start, recordBases, aloneBases);
        if (request.keepAlive()) {
            lease.keepAlive(keepAlive.start("batch lease '" + plan.namespace() + "' #" + outcome.fence(),
                    request.lease(), lease::renew, lease::markLost));
        }
        return BatchAttempt.acquired(lease);
    }

    /** Validates the keys and plans their chunks in this instance's layout. */
    BatchPlan plan(String namespace, Collection<String> keys, int alreadyHeld) {
        return BatchPlan.of(namespace, keys, config, schema, alreadyHeld, () -> layout().spread());
    }

    /**
     * Locks more keys for an existing lease (its fencing token, acquired-at time, records and the bases
     * whose hash it held alone at its last call there).
     */
    BatchChunks.Outcome extend(BatchPlan plan, String token, long fence, String acquiredAt, long leaseMs,
                               Set<String> recordBases, Set<String> aloneBases) {
        BatchLayout l = layout();
        return l.spread()
                ? l.buckets().lock(plan, token, String.valueOf(fence), acquiredAt, leaseMs, recordBases, aloneBases, null)
                : l.chunks().lock(plan, token, String.valueOf(fence), acquiredAt, leaseMs, recordBases, aloneBases, true);
    }

    /** Ends a lease: releases its chunks and records; never throws. */
    void release(String namespace, List<BatchPlan.Chunk> chunks, Set<String> recordBases, Set<String> aloneBases,
                 String token, String value) {
        BatchLayout l = layout();
        if (l.spread()) {
            l.buckets().release(namespace, chunks, recordBases, aloneBases, token, value, Set.of(), true);
        } else {
            l.chunks().release(namespace, chunks, recordBases, aloneBases, token, value, null, true);
        }
    }

    /**
     * Renews a lease's record under each of its key bases (all at once in spread mode).
     *
     * @return how many bases no longer held the lease
     */
    int renew(String namespace, Set<String> recordBases, String token, String value, long leaseMs) {
        BatchLayout l = layout();
        if (!l.spread()) {
            int lost = 0;
            for (String base : recordBases) {
                lost += l.scripts().renew(namespace, base, token, value, leaseMs) ? 0 : 1;
            }
            return lost;
        }
        int lost = l.buckets().renew(namespace, recordBases, token, value, leaseMs);
        if (lost == 0) {
            l.scripts().index(namespace, value, leaseMs);
        }
        return lost;
    }

    private BatchLayout layout() {
        BatchLayout l = layout;
        if (l != null) {
            return l;
        }
        synchronized (this) {
            if (layout == null) {
                layout = BatchLayout.choose(runner, schema, config, notifications, bucketCalls);
            }
            return layout;
        }
    }

    void leaseLost(BatchLease lease) {
        log.warn("job-guard: batch lease in namespace '{}' (fencing token {}) on node {} was lost",
                lease.namespace(), lease.fencingToken(), config.nodeId());
        for (BatchLockListener listener : listeners) {
            try {
                listener.onLeaseLost(lease);
            } catch (RuntimeException e) {
                log.warn("job-guard: batch lock listener {} threw", listener, e);
            }
        }
    }

    @Override
    public List<LeaseRecord> liveLeases(String namespace) {
        BatchPlan.checkNamespace(namespace);
        byte[] key = BatchPlan.bytes(schema.batchLeases(namespace));
        try (RedisConnection c = runner.connectionFactory().getConnection()) {
            Long nowMs = c.serverCommands().time(TimeUnit.MILLISECONDS);
            if (nowMs == null) {
                // Expiries are Redis TIME; this JVM's clock is no stand-in (clocks of nodes differ).
                throw new IllegalStateException("Redis TIME gave no reply");
            }
            Set<Tuple> entries = c.zSetCommands().zRangeWithScores(key, 0, -1);
            List<LeaseRecord> out = new ArrayList<>();
            if (entries != null) {
                for (Tuple t : entries) {
                    long left = (long) t.getScore().doubleValue() - nowMs;
                    if (left > 0) {
                        out.add(LeaseValues.parse(new String(t.getValue(), StandardCharsets.UTF_8), Duration.ofMillis(left)));
                    }
                }
            }
            return out;
        } catch (RuntimeException e) {
            throw new LeaseStoreException("job-guard could not list batch leases of namespace '" + namespace + "': "
                    + RateLimitedLog.causeChain(e), e);
        }
    }

    @Override
    public void addListener(BatchLockListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public BatchLockConfig config() {
        return config;
    }

    static long millis(Duration d) {
        return Math.max(1, d.toMillis());
    }

    @Override
    public void close() {
        keepAlive.close();
        bucketCalls.shutdown();
        notifications.close();
    }

    @Override
    public String toString() {
        BatchLayout l = layout;
        return "RedisBatchLocks[prefix=" + schema.prefix() + ", spread="
                + (l != null ? Boolean.toString(l.spread()) : config.spread() != null ? config.spread() : "from topology")
                + "]";
    }
}
