package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The batch scripts, one call per chunk. In the default (hash-tag) mode the fencing counter and the
 * lease index share the chunk's slot and are updated inside the scripts; in spread mode they live
 * in the namespace's slot and are updated by separate commands.
 */
final class BatchScripts {

    private static final LuaScript ACQUIRE = LuaScript.load("batch-acquire");
    private static final LuaScript RELEASE = LuaScript.load("batch-release");
    private static final LuaScript RENEW = LuaScript.load("batch-renew");
    /** Cluster re-sharding answers: the call did not run and can be repeated (the scripts are idempotent per token). */
    private static final String[] RETRYABLE = {"TRYAGAIN", "MOVED", "ASK", "CLUSTERDOWN"};
    private static final int ATTEMPTS = 5;

    /** A chunk acquisition's reply. */
    record ChunkReply(boolean acquired, String fence, String acquiredAt, List<Conflict> conflicts) {
    }

    /** A conflicting key by its index in the chunk, with the holder's raw value and TTL. */
    record Conflict(int index, String value, long pttl) {
    }

    private final ScriptRunner runner;
    private final KeySchema schema;
    private final boolean spread;
    private final int maxConflicts;

    BatchScripts(ScriptRunner runner, KeySchema schema, boolean spread, int maxConflicts) {
        this.runner = runner;
        this.schema = schema;
        this.spread = spread;
        this.maxConflicts = maxConflicts;
    }

    ChunkReply acquire(String namespace, BatchPlan.Chunk chunk, String token, String nodeId, long leaseMs,
                       String fence, String acquiredAt) {
        List<byte[]> meta = spread ? List.of()
                : List.of(BatchPlan.bytes(schema.batchFence(namespace)), BatchPlan.bytes(schema.batchLeases(namespace)));
        List<Object> reply = retrying(() -> runner.run(ACQUIRE, ReturnType.MULTI, meta.size() + chunk.redisKeys().size(),
                keysAndArgs(meta, chunk, token, nodeId, Long.toString(leaseMs), fence, acquiredAt,
                        Integer.toString(maxConflicts), spread ? "0" : "1")));
        boolean ok = ScriptRunner.number(reply.get(0)) == 1L;
        String fenceOut = Long.toString(ScriptRunner.number(reply.get(1)));
        String atOut = Long.toString(ScriptRunner.number(reply.get(2)));
        List<Conflict> conflicts = new ArrayList<>();
        for (int i = 3; i + 2 < reply.size(); i += 3) {
            conflicts.add(new Conflict((int) ScriptRunner.number(reply.get(i)) - 1, ScriptRunner.text(reply.get(i + 1)),
                    ScriptRunner.number(reply.get(i + 2))));
        }
        return new ChunkReply(ok, fenceOut, atOut, conflicts);
    }

    long release(String namespace, BatchPlan.Chunk chunk, String token, String indexEntry, String topic) {
        List<byte[]> meta = spread ? List.of() : List.of(BatchPlan.bytes(schema.batchLeases(namespace)));
        Long released = retrying(() -> runner.run(RELEASE, ReturnType.INTEGER, meta.size() + chunk.redisKeys().size(),
                keysAndArgs(meta, chunk, ownerPrefix(token), spread ? "0" : "1", schema.releaseChannel(), topic,
                        indexEntry == null ? "" : indexEntry)));
        return released == null ? 0 : released;
    }

    long renew(String namespace, BatchPlan.Chunk chunk, String token, String indexEntry, long leaseMs) {
        List<byte[]> meta = spread ? List.of() : List.of(BatchPlan.bytes(schema.batchLeases(namespace)));
        Long held = retrying(() -> runner.run(RENEW, ReturnType.INTEGER, meta.size() + chunk.redisKeys().size(),
                keysAndArgs(meta, chunk, ownerPrefix(token), Long.toString(leaseMs), spread ? "0" : "1", indexEntry)));
        return held == null ? 0 : held;
    }

    /** Spread mode: the next fencing token, from the namespace's counter. */
    String nextFence(String namespace) {
        Long fence = retrying(() -> {
            try (RedisConnection c = runner.connectionFactory().getConnection()) {
                return c.stringCommands().incr(BatchPlan.bytes(schema.batchFence(namespace)));
            }
        });
        return Long.toString(fence == null ? 0 : fence);
    }

    /** Spread mode: records (or re-scores) a live lease in the namespace's index. */
    void index(String namespace, String value, long leaseMs) {
        retrying(() -> {
            try (RedisConnection c = runner.connectionFactory().getConnection()) {
                byte[] key = BatchPlan.bytes(schema.batchLeases(namespace));
                Long now = c.serverCommands().time(TimeUnit.MILLISECONDS);
                long nowMs = now == null ? System.currentTimeMillis() : now;
                c.zSetCommands().zRemRangeByScore(key, Double.NEGATIVE_INFINITY, nowMs);
                return c.zSetCommands().zAdd(key, nowMs + (double) leaseMs, BatchPlan.bytes(value));
            }
        });
    }

    /** Spread mode: removes a lease from the namespace's index. */
    void unindex(String namespace, String value) {
        retrying(() -> {
            try (RedisConnection c = runner.connectionFactory().getConnection()) {
                return c.zSetCommands().zRem(BatchPlan.bytes(schema.batchLeases(namespace)), BatchPlan.bytes(value));
            }
        });
    }

    private static String ownerPrefix(String token) {
        return "jg1|" + token + "|";
    }

    boolean spread() {
        return spread;
    }

    private static byte[][] keysAndArgs(List<byte[]> meta, BatchPlan.Chunk chunk, String... args) {
        byte[][] out = new byte[meta.size() + chunk.redisKeys().size() + args.length][];
        int i = 0;
        for (byte[] m : meta) {
            out[i++] = m;
        }
        for (byte[] k : chunk.redisKeys()) {
            out[i++] = k;
        }
        for (String a : args) {
            out[i++] = BatchPlan.bytes(a);
        }
        return out;
    }

    private static <T> T retrying(java.util.function.Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !retryable(e)) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10L * attempt));
            }
        }
    }

    private static boolean retryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null) {
                for (String marker : RETRYABLE) {
                    if (message.contains(marker)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
