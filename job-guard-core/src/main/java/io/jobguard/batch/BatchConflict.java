package io.jobguard.batch;

import io.jobguard.store.LeaseRecord;

import java.util.Objects;

/**
 * One key that could not be locked, and who holds it.
 *
 * @param key    the business key
 * @param holder the holder (node, acquired-at, fencing token, expires-in), or a foreign record for
 *               a value job-guard did not write
 */
public record BatchConflict(String key, LeaseRecord holder) {

    /**
     * Creates a conflict.
     *
     * @param key    the business key
     * @param holder the holder
     */
    public BatchConflict {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(holder, "holder");
    }

    @Override
    public String toString() {
        return key + " (held by " + holder.describeHolder() + ")";
    }
}
