package io.jobguard.batch;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * A held batch of keys. Closing it releases every key it still holds, owner-checked: keys it lost
 * to expiry and that another lease took since are left alone. Closing twice is a no-op.
 */
public interface BatchLease extends AutoCloseable {

    /**
     * Returns the batch namespace.
     *
     * @return the batch namespace
     */
    String namespace();

    /**
     * Returns the fencing token: strictly greater for every successful acquisition in the
     * namespace; pass it to the systems the locked work writes to.
     *
     * @return the fencing token
     */
    long fencingToken();

    /**
     * Returns how many distinct keys this lease holds.
     *
     * @return the number of keys
     */
    int keyCount();

    /**
     * Returns the keys this lease holds, in lock order.
     *
     * @return an unmodifiable view of the keys
     */
    Set<String> keys();

    /**
     * Returns the lease duration.
     *
     * @return the lease duration
     */
    Duration lease();

    /**
     * Whether every key is still held: false after {@link #close()}, after a renewal or keep-alive
     * found a key lost, or once the lease ran out without renewal (measured on this node's
     * monotonic clock from the moment the acquisition was sent).
     *
     * @return whether the lease is still valid
     */
    boolean isValid();

    /**
     * Extends every key by the lease duration, owner-checked.
     *
     * @return {@code true} if the lease was still held and every key is extended; {@code false} if
     *         it expired meanwhile (the lease is then invalid and is never revived: its keys may
     *         have been taken by another lease)
     * @throws io.jobguard.store.LeaseStoreException if the store cannot be reached
     */
    boolean renew();

    /**
     * Adds keys to this lease, all or nothing; keys it already holds are accepted as they are.
     *
     * @param keys the keys to add
     * @return the conflicting keys and their holders; empty when every key is now held
     * @throws IllegalArgumentException              if a key is invalid or the lease would exceed the maximum
     * @throws IllegalStateException                 if the lease is no longer valid
     * @throws io.jobguard.store.LeaseStoreException if the store cannot be reached
     */
    List<BatchConflict> tryExtend(Collection<String> keys);

    /**
     * Releases every key this lease still holds; never throws for store failures (the keys then
     * expire with the lease).
     */
    @Override
    void close();
}
