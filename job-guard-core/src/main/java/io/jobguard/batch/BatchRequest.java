package io.jobguard.batch;

import io.jobguard.GuardType;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;

/**
 * One batch acquisition: which keys, for how long, and what to do when some are held.
 *
 * @param namespace the batch namespace
 * @param keys      the business keys (duplicates are ignored; validated on acquisition)
 * @param lease     how long the keys stay locked unless released or renewed; must be positive
 * @param type      {@link GuardType#RETURN} to fail fast, {@link GuardType#WAIT} to wait
 * @param waitFor   how long WAIT waits at most (ignored for RETURN); must not be negative
 * @param keepAlive whether the lease is renewed every lease/3 until closed
 */
public record BatchRequest(String namespace, Collection<String> keys, Duration lease, GuardType type,
                           Duration waitFor, boolean keepAlive) {

    /**
     * Validates the request's shape; keys are validated on acquisition.
     *
     * @param namespace the batch namespace
     * @param keys      the business keys
     * @param lease     the lease
     * @param type      the guard type
     * @param waitFor   the wait bound
     * @param keepAlive whether to keep the lease alive
     * @throws IllegalArgumentException if the lease is not positive or the wait bound is negative
     */
    public BatchRequest {
        Objects.requireNonNull(type, "type");
        if (keys == null) {
            throw new IllegalArgumentException("batch keys must not be null");
        }
        TimeBounds.lease(lease, "batch lease");
        if (waitFor == null || waitFor.isNegative()) {
            throw new IllegalArgumentException("batch waitFor must be zero or positive, got " + waitFor);
        }
        TimeBounds.nonNegative(waitFor, "batch waitFor");
        // Copied without rejecting nulls here: the acquisition reports them by position.
        keys = Collections.unmodifiableList(new ArrayList<>(keys));
    }

    /**
     * A fail-fast request without keep-alive.
     *
     * @param namespace the batch namespace
     * @param keys      the business keys
     * @param lease     the lease
     * @return the request
     */
    public static BatchRequest tryOnce(String namespace, Collection<String> keys, Duration lease) {
        return new BatchRequest(namespace, keys, lease, GuardType.RETURN, Duration.ZERO, false);
    }

    /**
     * A waiting request without keep-alive.
     *
     * @param namespace the batch namespace
     * @param keys      the business keys
     * @param lease     the lease
     * @param waitFor   the wait bound
     * @return the request
     */
    public static BatchRequest waiting(String namespace, Collection<String> keys, Duration lease, Duration waitFor) {
        return new BatchRequest(namespace, keys, lease, GuardType.WAIT, waitFor, false);
    }

    /**
     * The same request with keep-alive switched on or off.
     *
     * @param on whether to keep the lease alive
     * @return the copy
     */
    public BatchRequest withKeepAlive(boolean on) {
        return new BatchRequest(namespace, keys, lease, type, waitFor, on);
    }
}
