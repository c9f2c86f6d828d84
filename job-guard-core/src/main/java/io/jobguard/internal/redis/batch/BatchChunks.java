package io.jobguard.internal.redis.batch;

import io.jobguard.batch.BatchConflict;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LeaseValues;
import io.jobguard.internal.redis.ReleaseNotifications;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chunk protocol behind {@link BatchLockEngine}: a plan's chunks are locked one script call each,
 * in the plan's global order, and whatever one call locked is rolled back before a conflict or a
 * failure is reported, so a refused batch leaves nothing held; release is owner-checked chunk by chunk
 * and never throws (keys left behind expire with their lease record).
 */
record BatchChunks(BatchScripts scripts, KeySchema schema, String nodeId, ReleaseNotifications notifications) {

    private static final Logger log = LoggerFactory.getLogger(BatchChunks.class);

    /**
     * The result of locking every chunk of a plan: the fence and acquired-at used, or the conflicts,
     * or {@code leaseGone} when the lease's own record expired meanwhile (nothing is held then).
     */
    record Outcome(String fence, String acquiredAt, List<BatchConflict> conflicts, boolean leaseGone) {
    }

    /**
     * How far one run of chunk calls got: the chunks it locked, the key bases where it created the
     * lease's record, per key base whether its last call left the base's hash holding this lease's keys
     * alone, and, if it stopped early, the chunk it stopped at with either the refusal or the failure (a
     * failed call may have run on the server, so that chunk is uncertain).
     */
    record Progress(List<BatchPlan.Chunk> done, Set<String> created, Map<String, Boolean> alone, String fence,
                    String acquiredAt, BatchPlan.Chunk stoppedAt, BatchScripts.ChunkReply refusal,
                    RuntimeException failure) {

        boolean complete() {
            return stoppedAt == null;
        }
    }

    /**
     * Locks the plan's chunks in order; on a conflict or a failure releases what this call locked
     * before reporting, so nothing new stays held.
     *
     * @param recordBases the key bases where the lease already has its record; bases this call
     *                    creates a record under are added when the whole plan succeeds
     * @param aloneBases  the key bases whose hash held this lease's keys alone at its last call there;
     *                    updated from this call's replies when the whole plan succeeds
     * @param extending   whether the lease already exists (an extension keeps its records and index entry)
     */
    Outcome lock(BatchPlan plan, String token, String fence, String acquiredAt, long leaseMs,
                 Set<String> recordBases, Set<String> aloneBases, boolean extending) {
        Progress progress = lockChunks(plan.namespace(), plan.chunks(), token, fence, acquiredAt, leaseMs, recordBases);
        if (progress.complete()) {
            recordBases.addAll(progress.created());
            noteAlone(progress.alone(), aloneBases);
            return new Outcome(progress.fence(), progress.acquiredAt(), List.of(), false);
        }
        List<BatchPlan.Chunk> undo = new ArrayList<>(progress.done());
        BatchPlan.Chunk uncertain = progress.failure() == null ? null : progress.stoppedAt();
        if (uncertain != null) {
            undo.add(uncertain);
        }
        // In spread mode a new lease was indexed before its first chunk: unindex it even if nothing was locked.
        if (!undo.isEmpty() || (scripts.spread() && !extending)) {
            release(plan.namespace(), undo, progress.created(), Set.of(), token,
                    extending ? null : lockValue(token, progress.acquiredAt(), progress.fence()), uncertain, false);
        }
        return refused(plan.namespace(), progress);
    }

    /** Applies the last reply per key base: a base whose hash this lease holds alone, or no longer. */
    static void noteAlone(Map<String, Boolean> replies, Set<String> aloneBases) {
        replies.forEach((base, alone) -> {
            if (alone) {
                aloneBases.add(base);
            } else {
                aloneBases.remove(base);
            }
        });
    }

    /**
     * Calls the acquire script for each chunk in order and stops at the first refusal or failure;
     * rolls nothing back (the caller does).
     */
    Progress lockChunks(String namespace, List<BatchPlan.Chunk> chunks, String token, String fence,
                        String acquiredAt, long leaseMs, Set<String> recordBases) {
        List<BatchPlan.Chunk> done = new ArrayList<>();
        Set<String> created = new LinkedHashSet<>();
        Map<String, Boolean> alone = new HashMap<>();
        String f = fence;
        String at = acquiredAt;
        for (BatchPlan.Chunk chunk : chunks) {
            boolean create = !recordBases.contains(chunk.base()) && !created.contains(chunk.base());
            BatchScripts.ChunkReply reply;
            try {
                reply = scripts.acquire(namespace, chunk, token, nodeId, leaseMs, f, at, create);
            } catch (RuntimeException e) {
                // The failed call may have run on the server (and created the record): undo it too.
                if (create) {
                    created.add(chunk.base());
                }
                return new Progress(done, created, alone, f, at, chunk, null, e);
            }
            if (reply.status() != BatchScripts.Status.ACQUIRED) {
                return new Progress(done, created, alone, f, at, chunk, reply, null);
            }
            f = reply.fence();
            at = reply.acquiredAt();
            done.add(chunk);
            alone.put(chunk.base(), reply.alone());
            if (create) {
                created.add(chunk.base());
            }
        }
        return new Progress(done, created, alone, f, at, null, null, null);
    }

    /**
     * The outcome of a run that stopped early, once its chunks are rolled back: the failure is
     * thrown; a refusal is reported with its conflicts, or as {@code leaseGone}.
     */
    Outcome refused(String namespace, Progress progress) {
        if (progress.failure() != null) {
            throw storeFailure(namespace, progress.failure());
        }
        BatchPlan.Chunk chunk = progress.stoppedAt();
        BatchScripts.ChunkReply reply = progress.refusal();
        if (reply.status() == BatchScripts.Status.LEASE_GONE) {
            return new Outcome(progress.fence(), progress.acquiredAt(), List.of(new BatchConflict(chunk.keys().get(0),
                    LeaseRecord.foreign("(this lease expired while acquiring)", null))), true);
        }
        List<BatchConflict> conflicts = new ArrayList<>();
        for (BatchScripts.Conflict c : reply.conflicts()) {
            conflicts.add(new BatchConflict(chunk.keys().get(c.index()),
                    LeaseValues.parse(c.value(), LeaseValues.ttl(c.pttl()))));
        }
        if (conflicts.isEmpty()) {
            // The script reports at least one conflict; keep the refusal explicit if it ever does not.
            conflicts.add(new BatchConflict(chunk.keys().get(0), LeaseRecord.foreign("(released meanwhile)", null)));
        }
        return new Outcome(progress.fence(), progress.acquiredAt(), conflicts, false);
    }

    static LeaseStoreException storeFailure(String namespace, RuntimeException e) {
        return e instanceof LeaseStoreException lse ? lse : new LeaseStoreException(
                "job-guard could not lock batch keys in namespace '" + namespace + "': " + RateLimitedLog.causeChain(e), e);
    }

    /**
     * Owner-checked release of chunks; never throws (keys left behind expire with their lease record).
     *
     * @param endLeaseIn the key bases whose lease record is deleted (every base, when the lease ends);
     *                   each with the last chunk under it, so earlier chunks skip the owner check
     * @param aloneBases the key bases of {@code endLeaseIn} whose hash held this lease's keys alone at its
     *                   last call there: the first call there sends no keys, in case the hash goes whole
     * @param indexEntry the lease's entry in the index, or null if it was never indexed
     * @param uncertain  a chunk whose acquisition call failed on its way (owner-checked key by key), or null
     * @param notify     whether to wake waiters: a lease's end does; the rollback of a refused attempt does
     *                   not, since it would wake its own WAIT loop at once, over and over (the others it
     *                   refused re-try within their poll interval)
     */
    void release(String namespace, List<BatchPlan.Chunk> chunks, Set<String> endLeaseIn, Set<String> aloneBases,
                 String token, String indexEntry, BatchPlan.Chunk uncertain, boolean notify) {
        boolean interrupted = Thread.interrupted();
        String topic = notify ? schema.batchReleaseTopic(namespace) : "";
        try {
            interrupted |= releaseChunks(namespace, chunks, endLeaseIn, aloneBases, token, indexEntry, uncertain, topic);
            if (scripts.spread() && indexEntry != null) {
                scripts.unindex(namespace, indexEntry);
            }
        } catch (RuntimeException e) {
            warnReleaseFailed(namespace, e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (notify) {
            notifications.signal(topic);
        }
    }

    /**
     * Releases chunks one call each, in order; the call that releases the last keys publishes
     * {@code topic} unless it is "". Where the lease ends (a base of {@code endLeaseIn}, whose chunks
     * here are all of the lease's keys under it), the first call there drops the base's hash whole if
     * it holds this lease's keys alone, and the base's other chunks are then skipped; for a base of
     * {@code aloneBases} that first call carries no keys (they are sent only if the hash is shared by
     * now). Throws on a failure.
     *
     * @return whether an interrupt arrived meanwhile (the flag is cleared; the caller re-sets it when done)
     */
    boolean releaseChunks(String namespace, List<BatchPlan.Chunk> chunks, Set<String> endLeaseIn,
                          Set<String> aloneBases, String token, String indexEntry, BatchPlan.Chunk uncertain,
                          String topic) {
        Map<String, BatchPlan.Chunk> firstUnderBase = new HashMap<>();
        Map<String, BatchPlan.Chunk> lastUnderBase = new HashMap<>();
        for (BatchPlan.Chunk chunk : chunks) {
            firstUnderBase.putIfAbsent(chunk.base(), chunk);
            lastUnderBase.put(chunk.base(), chunk);
        }
        // From which position on every chunk shares one base: a whole release there is the last one.
        int tail = chunks.size() - 1;
        while (tail > 0 && chunks.get(tail - 1).base().equals(chunks.get(chunks.size() - 1).base())) {
            tail--;
        }
        Set<String> ended = new HashSet<>();
        boolean[] interrupted = {false};
        for (int i = 0; i < chunks.size(); i++) {
            BatchPlan.Chunk chunk = chunks.get(i);
            String base = chunk.base();
            if (ended.contains(base)) {
                continue;
            }
            boolean ending = endLeaseIn.contains(base);
            boolean whole = ending && firstUnderBase.get(base) == chunk;
            String wholePublish = i >= tail ? topic : "";
            if (whole && aloneBases.contains(base)) {
                BatchPlan.Chunk noKeys = new BatchPlan.Chunk(base, List.of(), List.of());
                if (releaseCall(namespace, noKeys, token, false, indexEntry, wholePublish, true, true, interrupted) < 0) {
                    ended.add(base);
                    continue;
                }
                // Shared by now (or gone): only an acquire call that finds no hash names its lease in the
                // marker, and this lease makes none any more, so no later call here checks it again.
                whole = false;
            }
            boolean end = ending && lastUnderBase.get(base) == chunk;
            String publish = i == chunks.size() - 1 ? topic : whole ? wholePublish : "";
            if (releaseCall(namespace, chunk, token, end, indexEntry, publish, chunk != uncertain, whole, interrupted) < 0) {
                ended.add(base);
            }
        }
        return interrupted[0];
    }

    /**
     * One release call; an interrupt that arrived during it aborted only the wait for the reply, so the
     * call (owner-checked and idempotent) is made again rather than leave keys held, and noted.
     */
    private long releaseCall(String namespace, BatchPlan.Chunk chunk, String token, boolean end, String indexEntry,
                             String publish, boolean complete, boolean whole, boolean[] interrupted) {
        try {
            return scripts.release(namespace, chunk, token, end, indexEntry, publish, complete, whole);
        } catch (RuntimeException e) {
            if (!Thread.interrupted()) {
                throw e;
            }
            interrupted[0] = true;
            return scripts.release(namespace, chunk, token, end, indexEntry, publish, complete, whole);
        }
    }

    void warnReleaseFailed(String namespace, RuntimeException e) {
        log.warn("job-guard: releasing batch keys in namespace '{}' on node {} failed; they expire with their lease: {}",
                namespace, nodeId, RateLimitedLog.causeChain(e));
    }

    /** The record value of a lease; batch-acquire.lua builds the same string. */
    String lockValue(String token, String acquiredAt, String fence) {
        return "jg1|" + token + "||" + acquiredAt + "|" + fence + "|" + nodeId;
    }
}
