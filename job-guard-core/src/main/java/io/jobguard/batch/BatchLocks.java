package io.jobguard.batch;

import io.jobguard.store.LeaseRecord;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * Locks sets of business keys all-or-nothing: after a successful acquisition every key of the set
 * is held by the returned lease, and after a refused one no key was changed. A key is held by at
 * most one lease at a time until that lease is released or expires (by the store's TTL, never by
 * a client clock).
 *
 * <p>Within one namespace, keys are plain strings (for example SKUs); different namespaces never
 * conflict. Input is checked before anything is sent: duplicates are ignored, while an empty set,
 * a null or blank key, a key longer than {@link BatchLockConfig#maxKeyLength()}, more distinct keys
 * than {@link BatchLockConfig#maxKeys()} or a non-positive lease fail with
 * {@link IllegalArgumentException}.
 *
 * <pre>{@code
 * try (BatchLease lease = locks.tryAcquire("sku", skus, Duration.ofMinutes(5)).orElseThrow()) {
 *     process(order, lease.fencingToken());
 * }
 * }</pre>
 */
public interface BatchLocks extends AutoCloseable {

    /**
     * Tries once to lock every key (RETURN): never waits for other holders.
     *
     * @param namespace the batch namespace
     * @param keys      the business keys; duplicates are ignored
     * @param lease     how long the keys stay locked unless released or renewed
     * @return the attempt: the lease, or the conflicting keys and their holders
     * @throws IllegalArgumentException                 if an argument is invalid (see the class comment)
     * @throws io.jobguard.store.LeaseStoreException     if the store cannot be reached; nothing stays locked
     */
    BatchAttempt tryAcquire(String namespace, Collection<String> keys, Duration lease);

    /**
     * Locks every key, waiting up to {@code waitFor} for conflicting holders to release or expire
     * (WAIT). While waiting it holds none of the keys, so two batches that overlap in any order
     * cannot deadlock.
     *
     * @param namespace the batch namespace
     * @param keys      the business keys; duplicates are ignored
     * @param lease     how long the keys stay locked unless released or renewed
     * @param waitFor   how long to wait at most; zero behaves like {@link #tryAcquire}
     * @return the attempt: the lease, or (on time-out) the keys still in conflict
     * @throws IllegalArgumentException                 if an argument is invalid or {@code waitFor} is negative
     * @throws InterruptedException                     if the thread is interrupted while waiting; nothing stays locked
     * @throws io.jobguard.store.LeaseStoreException     if the store cannot be reached; nothing stays locked
     */
    BatchAttempt acquire(String namespace, Collection<String> keys, Duration lease, Duration waitFor)
            throws InterruptedException;

    /**
     * Locks every key of a request, the general form of {@link #tryAcquire} and {@link #acquire}
     * with per-request keep-alive.
     *
     * @param request what to lock and how
     * @return the attempt
     * @throws IllegalArgumentException                 if the request's keys are invalid
     * @throws InterruptedException                     if the thread is interrupted while waiting; nothing stays locked
     * @throws io.jobguard.store.LeaseStoreException     if the store cannot be reached; nothing stays locked
     */
    BatchAttempt acquire(BatchRequest request) throws InterruptedException;

    /**
     * Lists the live batch leases of a namespace cluster-wide, from the store's index (no key scan).
     *
     * @param namespace the batch namespace
     * @return one record per live lease: holder node, acquired-at, fencing token, expires-in
     * @throws io.jobguard.store.LeaseStoreException if the store cannot be reached
     */
    List<LeaseRecord> liveLeases(String namespace);

    /**
     * Registers a listener for acquisitions and lost leases (metrics, logs).
     *
     * @param listener the listener; its exceptions are logged and ignored
     */
    void addListener(BatchLockListener listener);

    /**
     * Returns the configuration.
     *
     * @return the configuration
     */
    BatchLockConfig config();

    /** Stops keep-alive renewals and release subscriptions; leases already acquired stay until they expire. */
    @Override
    void close();
}
