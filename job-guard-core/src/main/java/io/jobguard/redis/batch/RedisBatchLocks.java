package io.jobguard.redis.batch;

import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLockListener;
import io.jobguard.batch.BatchLocks;
import io.jobguard.batch.BatchRequest;
import io.jobguard.internal.redis.batch.BatchLockEngine;
import io.jobguard.store.LeaseRecord;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * {@link BatchLocks} in Redis (standalone, Sentinel or Cluster through any spring-data-redis
 * {@link RedisConnectionFactory}). A batch is all or nothing for the caller: either every key is
 * held by the returned lease, or nothing was changed and the conflicting keys are reported. Leases
 * expire by Redis TTL, are released and renewed only by their owner, and carry a fencing token
 * that is strictly greater for every acquisition in a namespace.
 *
 * <p>Each chunk of up to {@link BatchLockConfig#chunkSize()} keys is one script call; release is
 * one call per chunk and renewal one call per lease (per bucket in spread mode), whatever the key
 * count. By default every key of a namespace shares one hash tag (one slot: atomic per chunk, but on
 * a Redis Cluster the namespace lives on one master). In spread mode ({@link BatchLockConfig#spread()},
 * chosen by default on a Redis Cluster with several masters) keys are spread over 16 buckets whose
 * hash tags cover the slot space evenly; one namespace call takes the fencing token and indexes the
 * lease, then every bucket is called at once , rolled back as a whole on a
 * conflict; a WAIT that was refused re-tries bucket by bucket in ascending order, so of two
 * overlapping batches one makes progress. {@code TRYAGAIN}/{@code MOVED} replies are retried.
 * Every time stored or compared is Redis TIME.
 *
 * <p>The connection factory is not closed by {@link #close()}.
 */
public final class RedisBatchLocks implements BatchLocks {

    private final BatchLockEngine engine;

    private RedisBatchLocks(BatchLockEngine engine) {
        this.engine = engine;
    }

    /**
     * Creates batch locks with the key prefix {@code jobguard} and default settings.
     *
     * @param connectionFactory the Redis connections to use
     * @return the batch locks
     */
    public static RedisBatchLocks create(RedisConnectionFactory connectionFactory) {
        return create(connectionFactory, "jobguard", BatchLockConfig.defaults());
    }

    /**
     * Creates batch locks.
     *
     * @param connectionFactory the Redis connections to use
     * @param keyPrefix         first segment of every key
     * @param config            the settings
     * @return the batch locks
     * @throws IllegalArgumentException if the prefix is blank, contains whitespace, control characters or
     *                                  braces, or is longer than 200 characters
     */
    public static RedisBatchLocks create(RedisConnectionFactory connectionFactory, String keyPrefix,
                                         BatchLockConfig config) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        Objects.requireNonNull(config, "config");
        return new RedisBatchLocks(new BatchLockEngine(connectionFactory, keyPrefix, config));
    }

    @Override
    public BatchAttempt tryAcquire(String namespace, Collection<String> keys, Duration lease) {
        return engine.tryAcquire(namespace, keys, lease);
    }

    @Override
    public BatchAttempt acquire(String namespace, Collection<String> keys, Duration lease, Duration waitFor)
            throws InterruptedException {
        return engine.acquire(namespace, keys, lease, waitFor);
    }

    @Override
    public BatchAttempt acquire(BatchRequest request) throws InterruptedException {
        return engine.acquire(request);
    }

    @Override
    public List<LeaseRecord> liveLeases(String namespace) {
        return engine.liveLeases(namespace);
    }

    @Override
    public void addListener(BatchLockListener listener) {
        engine.addListener(listener);
    }

    @Override
    public BatchLockConfig config() {
        return engine.config();
    }

    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
