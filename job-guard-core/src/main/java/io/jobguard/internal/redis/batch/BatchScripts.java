package io.jobguard.internal.redis.batch;

import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.LeaseStoreException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.concurrent.locks.LockSupport;

/**
 * The batch scripts, one call per chunk. In the default (hash-tag) mode the fencing counter and the
 * lease index share the chunk's slot and are updated inside the scripts; in spread mode they live
 * in the namespace's slot and one {@code batch-index.lua} call per acquisition takes the fencing
 * token, the acquired-at time and indexes the lease, before the bucket calls. Every time is Redis
 * TIME, never this JVM's clock.
 */
record BatchScripts(ScriptRunner runner, KeySchema schema, boolean spread, int maxConflicts) {

    private static final LuaScript ACQUIRE = LuaScript.load("batch-acquire");
    private static final LuaScript RELEASE = LuaScript.load("batch-release");
    private static final LuaScript RENEW = LuaScript.load("batch-renew");
    private static final LuaScript INDEX = LuaScript.load("batch-index");
    /** Cluster re-sharding answers: the call did not run and can be repeated (the scripts are idempotent per token). */
    private static final Pattern RETRYABLE = Pattern.compile("TRYAGAIN|MOVED|ASK|CLUSTERDOWN");
    private static final int ATTEMPTS = 5;
    /**
     * The value of every holders hash's field {@code ''}, which no business key can be: longer than
     * Redis's default {@code hash-max-listpack-value} (64 bytes), so the hash stays in hashtable
     * encoding. batch-acquire.lua appends the owner token of the one lease whose keys the hash holds
     * alone, and batch-release.lua drops such a hash whole when that lease ends.
     */
    static final String HOLDERS_MARKER =
            "job-guard batch lock holders: field = business key, value = owner token of a lease record; alone: ";

    /** How a chunk acquisition ended. */
    enum Status { ACQUIRED, CONFLICT, LEASE_GONE }

    /**
     * A chunk acquisition's reply; {@code alone} when the chunk's hash now holds this lease's keys alone
     * (its release can then go whole, see {@link BatchChunks#releaseChunks}).
     */
    record ChunkReply(Status status, String fence, String acquiredAt, List<Conflict> conflicts, boolean alone) {
    }

    /** Spread mode: the fencing token and acquired-at time (epoch ms, Redis TIME) of a new lease. */
    record Begin(String fence, String acquiredAt) {
    }

    /** A conflicting key by its index in the chunk, with the holder's raw record value and TTL. */
    record Conflict(int index, String value, long pttl) {
    }

    /**
     * Locks one chunk.
     *
     * @param createRecord whether this call creates the lease's record under the chunk's base (the
     *                     lease's first chunk there); otherwise the record must already exist
     */
    ChunkReply acquire(String namespace, BatchPlan.Chunk chunk, String token, String nodeId, long leaseMs,
                       String fence, String acquiredAt, boolean createRecord) {
        byte[][] keys = keys(namespace, chunk, token, true);
        List<Object> reply = retrying(() -> runner.run(ACQUIRE, ReturnType.MULTI, keys.length,
                keysAndArgs(keys, chunk, token, nodeId, Long.toString(leaseMs), fence, acquiredAt,
                        Integer.toString(maxConflicts), spread ? "0" : "1", createRecord ? "1" : "0",
                        schema.batchLeaseRecords(chunk.base()), HOLDERS_MARKER)));
        long status = ScriptRunner.number(reply.get(0));
        String fenceOut = Long.toString(ScriptRunner.number(reply.get(1)));
        String atOut = Long.toString(ScriptRunner.number(reply.get(2)));
        List<Conflict> conflicts = new ArrayList<>();
        for (int i = 3; i + 2 < reply.size(); i += 3) {
            conflicts.add(new Conflict((int) ScriptRunner.number(reply.get(i)) - 1, ScriptRunner.text(reply.get(i + 1)),
                    ScriptRunner.number(reply.get(i + 2))));
        }
        Status outcome = status == 1L ? Status.ACQUIRED : status == 0L ? Status.CONFLICT : Status.LEASE_GONE;
        boolean alone = outcome == Status.ACQUIRED && reply.size() > 3 && ScriptRunner.number(reply.get(3)) == 1L;
        return new ChunkReply(outcome, fenceOut, atOut, conflicts, alone);
    }

    /**
     * Releases one chunk, owner-checked.
     *
     * @param endLease   whether to delete the lease's record under the chunk's base (and unindex it)
     * @param indexEntry the lease's index entry, or null if it was never indexed
     * @param topic      the release notification to publish, or "" for none
     * @param complete   whether this lease set every key of the chunk (false for a call that failed on
     *                   its way: then each key is owner-checked)
     * @param whole      whether the lease ends under the chunk's base and this is its first chunk there:
     *                   if the base's hash holds this lease's keys alone, it goes whole, with the record
     *                   (and index entry), and {@code topic} is published
     * @return the number of keys released, or -1 when the lease ended as a whole under the chunk's base
     *         (its other chunks there need no call)
     */
    long release(String namespace, BatchPlan.Chunk chunk, String token, boolean endLease, String indexEntry,
                 String topic, boolean complete, boolean whole) {
        byte[][] keys = keys(namespace, chunk, token, false);
        Long released = retrying(() -> runner.run(RELEASE, ReturnType.INTEGER, keys.length,
                keysAndArgs(keys, chunk, token, endLease ? "1" : "0", spread ? "0" : "1",
                        indexEntry == null ? "" : indexEntry, schema.releaseChannel(), topic, complete ? "1" : "0",
                        whole ? HOLDERS_MARKER : "")));
        return released == null ? 0 : released;
    }

    /**
     * Extends the lease's record under one key base; the cost does not depend on the key count.
     *
     * @return whether the record (and so every key of the lease under that base) was still held
     */
    boolean renew(String namespace, String base, String token, String indexEntry, long leaseMs) {
        List<byte[]> keys = new ArrayList<>(List.of(BatchPlan.bytes(schema.batchHeld(base)),
                BatchPlan.bytes(schema.batchLeaseRecords(base) + token)));
        if (!spread) {
            keys.add(BatchPlan.bytes(schema.batchLeases(namespace)));
        }
        byte[][] keysAndArgs = new byte[keys.size() + 3][];
        for (int i = 0; i < keys.size(); i++) {
            keysAndArgs[i] = keys.get(i);
        }
        keysAndArgs[keys.size()] = BatchPlan.bytes(Long.toString(leaseMs));
        keysAndArgs[keys.size() + 1] = BatchPlan.bytes(spread ? "0" : "1");
        keysAndArgs[keys.size() + 2] = BatchPlan.bytes(indexEntry);
        Long held = retrying(() -> runner.run(RENEW, ReturnType.INTEGER, keys.size(), keysAndArgs));
        return held != null && held == 1L;
    }

    /** KEYS of the acquire and release scripts: hash, record, then (default mode) fence counter and/or index. */
    private byte[][] keys(String namespace, BatchPlan.Chunk chunk, String token, boolean withFence) {
        List<byte[]> keys = new ArrayList<>(4);
        keys.add(BatchPlan.bytes(schema.batchHeld(chunk.base())));
        keys.add(BatchPlan.bytes(schema.batchLeaseRecords(chunk.base()) + token));
        if (!spread) {
            if (withFence) {
                keys.add(BatchPlan.bytes(schema.batchFence(namespace)));
            }
            keys.add(BatchPlan.bytes(schema.batchLeases(namespace)));
        }
        return keys.toArray(byte[][]::new);
    }

    /**
     * Spread mode: takes the namespace's next fencing token and indexes the new lease, in one call.
     *
     * @return the token and the acquired-at time the bucket calls write into the lease's records
     */
    Begin begin(String namespace, String token, String nodeId, long leaseMs) {
        List<Object> reply = retrying(() -> runner.run(INDEX, ReturnType.MULTI,
                List.of(schema.batchFence(namespace), schema.batchLeases(namespace)),
                List.of("begin", Long.toString(leaseMs), token, nodeId)));
        long fence = ScriptRunner.number(reply.get(0));
        if (fence <= 0) {
            // a foreign or corrupted counter: never hand out a token that is not positive
            throw new LeaseStoreException("job-guard: fencing counter " + schema.batchFence(namespace) + " gave "
                    + fence + ", not a positive token; the batch is refused (delete the key only if no batch lease "
                    + "of the namespace is live)");
        }
        return new Begin(Long.toString(fence), Long.toString(ScriptRunner.number(reply.get(1))));
    }

    /** Spread mode: re-scores a live lease in the namespace's index with its new expiry (Redis TIME). */
    void index(String namespace, String value, long leaseMs) {
        retrying(() -> runner.<Long>run(INDEX, ReturnType.INTEGER,
                List.of(schema.batchFence(namespace), schema.batchLeases(namespace)),
                List.of("renew", Long.toString(leaseMs), value)));
    }

    /**
     * Spread mode, after the bucket calls of a release: unindexes the lease and publishes the
     * release notification, in one call.
     *
     * @param indexEntry the lease's index entry, or null if it was never indexed
     */
    void finish(String namespace, String indexEntry, String topic) {
        retrying(() -> runner.<Long>run(INDEX, ReturnType.INTEGER,
                List.of(schema.batchFence(namespace), schema.batchLeases(namespace)),
                List.of("end", "0", indexEntry == null ? "" : indexEntry, schema.releaseChannel(), topic)));
    }

    /** Spread mode: removes a lease from the namespace's index. */
    void unindex(String namespace, String value) {
        retrying(() -> {
            try (RedisConnection c = runner.connectionFactory().getConnection()) {
                return c.zSetCommands().zRem(BatchPlan.bytes(schema.batchLeases(namespace)), BatchPlan.bytes(value));
            }
        });
    }

    /** KEYS, then the given ARGV, then the chunk's business keys as the trailing ARGV. */
    private static byte[][] keysAndArgs(byte[][] keys, BatchPlan.Chunk chunk, String... args) {
        byte[][] out = new byte[keys.length + args.length + chunk.fields().size()][];
        int i = 0;
        for (byte[] k : keys) {
            out[i++] = k;
        }
        for (String a : args) {
            out[i++] = BatchPlan.bytes(a);
        }
        for (byte[] field : chunk.fields()) {
            out[i++] = field;
        }
        return out;
    }

    private static <T> T retrying(java.util.function.Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !retryable(e)) {
                    // One exception type for every store failure, so callers (and their interrupt handling) see it.
                    throw e instanceof LeaseStoreException lse ? lse
                            : new LeaseStoreException("job-guard batch store call failed: " + RateLimitedLog.causeChain(e), e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10L * attempt));
            }
        }
    }

    private static boolean retryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && RETRYABLE.matcher(message).find()) {
                return true;
            }
        }
        return false;
    }
}
