package io.jobguard.internal.redis.batch;

import io.jobguard.batch.BatchConflict;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.ReleaseNotifications;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * Spread mode's fan-out: the buckets of one batch are locked, released and renewed by calls sent
 * to their masters at once (one task per bucket, chunks of a bucket in order), so a batch costs two
 * round trips of latency (the namespace call of {@code batch-index.lua}, then every bucket at once)
 * instead of one per bucket, while each bucket's keys fit one chunk. The calls of buckets that sit on the same master share that master's
 * connection when the connection factory shares one (Lettuce's default), which pipelines them.
 *
 * <p>All or nothing still holds for the caller, and for every other batch: a bucket call is atomic
 * on its master, a batch is reported acquired only when every bucket call took all its keys, and
 * when any bucket refuses or fails, every bucket this attempt touched is rolled back before the
 * refusal is reported (owner-checked, so keys of others are never touched). Another batch may
 * meanwhile be refused because of keys this attempt held for a moment; it is never granted a key
 * this attempt holds, because each key is taken by one atomic script on the master that owns it.
 * Nothing waits while holding anything, so there is no deadlock; two overlapping batches that both
 * lose are re-tried by {@link BatchLockEngine} in the fixed bucket order (one call after another),
 * where the batch that first takes the lowest shared bucket wins.
 */
final class BatchBuckets {

    private final BatchScripts scripts;
    private final BatchChunks chunks;
    private final KeySchema schema;
    private final ReleaseNotifications notifications;
    private final ExecutorService executor;

    BatchBuckets(BatchScripts scripts, BatchChunks chunks, KeySchema schema, ReleaseNotifications notifications,
                 ExecutorService executor) {
        this.scripts = scripts;
        this.chunks = chunks;
        this.schema = schema;
        this.notifications = notifications;
        this.executor = executor;
    }

    /**
     * Locks every bucket of the plan at once; on a refusal or a failure rolls back every bucket
     * this call touched before reporting, so nothing new stays held.
     *
     * @param fence       the lease's fencing token (from {@link BatchScripts#begin})
     * @param acquiredAt  the lease's acquired-at time (from {@link BatchScripts#begin})
     * @param recordBases the buckets where the lease already has its record; the ones this call
     *                    creates are added when every bucket succeeded
     * @param aloneBases  the buckets whose hash held this lease's keys alone at its last call there;
     *                    updated from this call's replies when every bucket succeeded
     * @param indexEntry  the lease's index entry to remove on a rollback, or null to keep it (an extension)
     */
    BatchChunks.Outcome lock(BatchPlan plan, String token, String fence, String acquiredAt, long leaseMs,
                             Set<String> recordBases, Set<String> aloneBases, String indexEntry) {
        Map<String, List<BatchPlan.Chunk>> byBucket = byBase(plan.chunks());
        List<Future<BatchChunks.Progress>> calls = new ArrayList<>(byBucket.size());
        for (List<BatchPlan.Chunk> bucket : byBucket.values()) {
            calls.add(submit(() -> chunks.lockChunks(plan.namespace(), bucket, token, fence, acquiredAt, leaseMs,
                    recordBases)));
        }
        List<BatchChunks.Progress> results = awaitAll(calls);
        List<BatchPlan.Chunk> undo = new ArrayList<>();
        Set<String> created = new LinkedHashSet<>();
        Set<BatchPlan.Chunk> uncertain = new LinkedHashSet<>();
        List<BatchChunks.Progress> stopped = new ArrayList<>();
        for (BatchChunks.Progress progress : results) {
            undo.addAll(progress.done());
            created.addAll(progress.created());
            if (!progress.complete()) {
                stopped.add(progress);
                if (progress.failure() != null) {
                    undo.add(progress.stoppedAt());
                    uncertain.add(progress.stoppedAt());
                }
            }
        }
        if (stopped.isEmpty()) {
            recordBases.addAll(created);
            for (BatchChunks.Progress progress : results) {
                BatchChunks.noteAlone(progress.alone(), aloneBases);
            }
            return new BatchChunks.Outcome(fence, acquiredAt, List.of(), false);
        }
        release(plan.namespace(), undo, created, Set.of(), token, indexEntry, uncertain, false);
        return refused(plan.namespace(), stopped);
    }

    /** The failure of any bucket is thrown; otherwise the refusals of all buckets are reported together. */
    private BatchChunks.Outcome refused(String namespace, List<BatchChunks.Progress> stopped) {
        for (BatchChunks.Progress progress : stopped) {
            if (progress.failure() != null) {
                throw BatchChunks.storeFailure(namespace, progress.failure());
            }
        }
        BatchChunks.Outcome first = null;
        List<BatchConflict> conflicts = new ArrayList<>();
        boolean leaseGone = false;
        for (BatchChunks.Progress progress : stopped) {
            BatchChunks.Outcome outcome = chunks.refused(namespace, progress);
            first = first == null ? outcome : first;
            conflicts.addAll(outcome.conflicts());
            leaseGone |= outcome.leaseGone();
        }
        int cap = scripts.maxConflicts();
        return new BatchChunks.Outcome(first.fence(), first.acquiredAt(),
                List.copyOf(conflicts.subList(0, Math.min(cap, conflicts.size()))), leaseGone);
    }

    /**
     * Releases the chunks, every bucket at once, then unindexes the lease and wakes waiters in one
     * call (after the buckets, so a woken waiter finds the keys free). Owner-checked; never throws
     * (keys left behind expire with their lease record).
     *
     * @param endLeaseIn the buckets whose lease record is deleted (every bucket, when the lease ends)
     * @param aloneBases the buckets whose hash held this lease's keys alone at its last call there
     * @param indexEntry the lease's index entry, or null if it is not to be removed
     * @param uncertain  chunks whose acquisition call failed on its way (owner-checked key by key)
     * @param notify     whether to wake waiters (not for the rollback of a refused attempt, see {@link BatchChunks#release})
     */
    void release(String namespace, List<BatchPlan.Chunk> toRelease, Set<String> endLeaseIn, Set<String> aloneBases,
                 String token, String indexEntry, Set<BatchPlan.Chunk> uncertain, boolean notify) {
        List<Future<Boolean>> calls = new ArrayList<>();
        for (List<BatchPlan.Chunk> bucket : byBase(toRelease).values()) {
            BatchPlan.Chunk uncertainHere = null;
            for (BatchPlan.Chunk chunk : bucket) {
                uncertainHere = uncertain.contains(chunk) ? chunk : uncertainHere;
            }
            BatchPlan.Chunk unsure = uncertainHere;
            calls.add(submit(() -> chunks.releaseChunks(namespace, bucket, endLeaseIn, aloneBases, token, indexEntry,
                    unsure, "")));
        }
        String topic = notify ? schema.batchReleaseTopic(namespace) : "";
        try {
            awaitAll(calls);
            scripts.finish(namespace, indexEntry, topic);
        } catch (RuntimeException e) {
            chunks.warnReleaseFailed(namespace, e);
        }
        if (notify) {
            notifications.signal(topic);
        }
    }

    /**
     * Renews the lease's record in every bucket at once.
     *
     * @return how many buckets no longer held the lease
     */
    int renew(String namespace, Set<String> bases, String token, String indexEntry, long leaseMs) {
        List<Future<Boolean>> calls = new ArrayList<>(bases.size());
        for (String base : bases) {
            calls.add(submit(() -> scripts.renew(namespace, base, token, indexEntry, leaseMs)));
        }
        int lost = 0;
        for (boolean held : awaitAll(calls)) {
            lost += held ? 0 : 1;
        }
        return lost;
    }

    private static Map<String, List<BatchPlan.Chunk>> byBase(List<BatchPlan.Chunk> chunks) {
        Map<String, List<BatchPlan.Chunk>> out = new LinkedHashMap<>();
        for (BatchPlan.Chunk chunk : chunks) {
            out.computeIfAbsent(chunk.base(), b -> new ArrayList<>()).add(chunk);
        }
        return out;
    }

    /** Runs the call on the pool, or on this thread once the pool is shut down (a lease closed after its locks). */
    private <T> Future<T> submit(Callable<T> call) {
        try {
            return executor.submit(call);
        } catch (RejectedExecutionException e) {
            FutureTask<T> inline = new FutureTask<>(call);
            inline.run();
            return inline;
        }
    }

    /**
     * Waits for every call, even when interrupted (an abandoned call could leave keys held that no
     * rollback covers); the interrupt is kept for the caller. A call's exception is re-thrown after
     * all calls ended.
     */
    private static <T> List<T> awaitAll(List<Future<T>> calls) {
        boolean interrupted = false;
        List<T> results = new ArrayList<>(calls.size());
        RuntimeException failure = null;
        for (Future<T> call : calls) {
            while (true) {
                try {
                    results.add(call.get());
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    failure = failure != null ? failure
                            : cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }
}
