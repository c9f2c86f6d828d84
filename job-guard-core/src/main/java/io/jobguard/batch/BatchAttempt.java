package io.jobguard.batch;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one batch acquisition: either a lease holding every key, or the reason none is
 * held (conflicting keys with their holders, at most {@link BatchLockConfig#maxReportedConflicts()}
 * of them). Not getting the keys is a normal result, not an exception.
 */
public final class BatchAttempt {

    private final String namespace;
    private final int keyCount;
    private final BatchResult result;
    private final BatchLease lease;
    private final List<BatchConflict> conflicts;

    private BatchAttempt(String namespace, int keyCount, BatchResult result, BatchLease lease,
                         List<BatchConflict> conflicts) {
        this.namespace = namespace;
        this.keyCount = keyCount;
        this.result = result;
        this.lease = lease;
        this.conflicts = List.copyOf(conflicts);
    }

    /**
     * An attempt that got every key.
     *
     * @param lease the lease
     * @return the attempt
     */
    public static BatchAttempt acquired(BatchLease lease) {
        Objects.requireNonNull(lease, "lease");
        return new BatchAttempt(lease.namespace(), lease.keyCount(), BatchResult.ACQUIRED, lease, List.of());
    }

    /**
     * An attempt that holds nothing.
     *
     * @param namespace the batch namespace
     * @param keyCount  how many distinct keys were asked for
     * @param result    why nothing is held (not {@link BatchResult#ACQUIRED})
     * @param conflicts the conflicting keys found, possibly empty
     * @return the attempt
     * @throws IllegalArgumentException if {@code result} is {@link BatchResult#ACQUIRED}
     */
    public static BatchAttempt refused(String namespace, int keyCount, BatchResult result,
                                       List<BatchConflict> conflicts) {
        if (result == BatchResult.ACQUIRED) {
            throw new IllegalArgumentException("a refused attempt cannot have result ACQUIRED");
        }
        return new BatchAttempt(namespace, keyCount, result, null, conflicts);
    }

    /**
     * Whether every key is held.
     *
     * @return {@code true} if {@link #lease()} is present
     */
    public boolean acquired() {
        return lease != null;
    }

    /**
     * Returns the lease, if acquired.
     *
     * @return the lease, or empty
     */
    public Optional<BatchLease> lease() {
        return Optional.ofNullable(lease);
    }

    /**
     * Returns the lease or throws.
     *
     * @return the lease
     * @throws BatchLockUnavailableException if the keys were not acquired; it lists the conflicts
     */
    public BatchLease orElseThrow() {
        if (lease == null) {
            throw new BatchLockUnavailableException(namespace, keyCount, result, conflicts);
        }
        return lease;
    }

    /**
     * Returns how the attempt ended.
     *
     * @return the result
     */
    public BatchResult result() {
        return result;
    }

    /**
     * Returns the conflicting keys and their holders (capped; empty when acquired).
     *
     * @return the conflicts
     */
    public List<BatchConflict> conflicts() {
        return conflicts;
    }

    /**
     * Returns how many distinct keys were asked for.
     *
     * @return the key count
     */
    public int keyCount() {
        return keyCount;
    }

    @Override
    public String toString() {
        return "BatchAttempt[" + namespace + ", " + keyCount + " keys, " + result
                + (conflicts.isEmpty() ? "" : ", conflicts=" + conflicts) + "]";
    }
}
