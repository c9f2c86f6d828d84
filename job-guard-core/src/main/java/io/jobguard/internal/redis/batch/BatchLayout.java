package io.jobguard.internal.redis.batch;

import io.jobguard.batch.BatchLockConfig;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.ReleaseNotifications;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.LeaseStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a {@link BatchLockEngine} keeps its keys, chosen once: one hash tag per namespace, or
 * spread over 16 buckets. Unless the configuration says, the mode follows the topology (spread on a
 * Redis Cluster whose slots sit on several masters, one hash tag otherwise), and the first node to
 * choose records its mode under {@code <prefix>:batch-mode}; every later node with the same prefix
 * follows the record, so nodes started before and after a cluster grew never lock the same keys in
 * two layouts (which would not exclude each other). An explicit setting wins over the record and
 * is logged when it differs.
 *
 * @param spread  whether keys are spread over buckets
 * @param scripts the script calls of this layout
 * @param chunks  the chunk-by-chunk protocol (every call in order)
 * @param buckets spread mode's all-buckets-at-once protocol
 */
record BatchLayout(boolean spread, BatchScripts scripts, BatchChunks chunks, BatchBuckets buckets) {

    private static final Logger log = LoggerFactory.getLogger(BatchLayout.class);
    private static final String SPREAD = "spread";
    private static final String HASH = "hash";

    /**
     * Chooses the layout (one or two Redis calls; on a failure nothing is chosen and the caller's
     * next call tries again).
     *
     * @throws LeaseStoreException when Redis cannot be asked
     */
    static BatchLayout choose(ScriptRunner runner, KeySchema schema, BatchLockConfig config,
                              ReleaseNotifications notifications, ExecutorService bucketCalls) {
        boolean spread;
        try (RedisConnection c = runner.connectionFactory().getConnection()) {
            spread = spread(c, schema.prefix() + ":batch-mode", config.spread());
        } catch (RuntimeException e) {
            throw new LeaseStoreException("job-guard could not choose the batch key layout (jobguard.batch.spread "
                    + "unset: it follows the Redis topology): " + RateLimitedLog.causeChain(e), e);
        }
        BatchScripts scripts = new BatchScripts(runner, schema, spread, config.maxReportedConflicts());
        BatchChunks chunks = new BatchChunks(scripts, schema, config.nodeId(), notifications);
        log.info("job-guard: batch locks with key prefix '{}' use {}", schema.prefix(), spread
                ? "spread mode (16 slot-range buckets per namespace, called in parallel)"
                : "one hash tag per namespace");
        return new BatchLayout(spread, scripts, chunks,
                new BatchBuckets(scripts, chunks, schema, notifications, bucketCalls));
    }

    private static boolean spread(RedisConnection c, String key, Boolean configured) {
        byte[] modeKey = key.getBytes(StandardCharsets.UTF_8);
        byte[] recorded = c.stringCommands().get(modeKey);
        if (recorded == null) {
            boolean chosen = configured != null ? configured : mastersWithSlots(c) > 1;
            c.stringCommands().setNX(modeKey, (chosen ? SPREAD : HASH).getBytes(StandardCharsets.UTF_8));
            recorded = c.stringCommands().get(modeKey);
        }
        String mode = recorded == null ? null : new String(recorded, StandardCharsets.UTF_8);
        if (configured != null) {
            if (mode != null && !mode.equals(configured ? SPREAD : HASH)) {
                log.warn("job-guard: jobguard.batch.spread={} but {} records '{}' (another node's choice); this node "
                        + "follows its setting, and its batches do not exclude those of nodes in the other mode",
                        configured, key, mode);
            }
            return configured;
        }
        if (SPREAD.equals(mode) || HASH.equals(mode)) {
            return SPREAD.equals(mode);
        }
        throw new IllegalStateException(key + " holds '" + mode + "', neither '" + SPREAD + "' nor '" + HASH
                + "' (set jobguard.batch.spread, or delete the key only if no batch lease is live)");
    }

    private static int mastersWithSlots(RedisConnection c) {
        if (!(c instanceof RedisClusterConnection cluster)) {
            return 1;
        }
        int masters = 0;
        for (RedisClusterNode node : cluster.clusterGetNodes()) {
            if (node.isMaster() && node.getSlotRange() != null && !node.getSlotRange().getSlots().isEmpty()) {
                masters++;
            }
        }
        return masters;
    }

    /**
     * The pool of spread mode's bucket calls: as many threads as calls in flight (16 buckets per
     * batch, times concurrent batches), made when needed and ended after a minute idle; daemons, so
     * a locks instance that is never closed does not keep the JVM alive.
     */
    static ExecutorService bucketCallPool(String keyPrefix) {
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(64, 64, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                task -> {
                    Thread t = new Thread(task, "jobguard-batch-" + keyPrefix + "-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
