package io.jobguard.batch;

import java.util.List;

/**
 * Thrown when a batch of keys could not be locked and the caller asked for an exception rather
 * than a result ({@link BatchAttempt#orElseThrow()}, or an {@code @BatchLocked} method). The code
 * that needed the keys did not run. The message names the namespace, the result and the first
 * conflicting keys with their holders.
 */
public final class BatchLockUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String namespace;
    private final BatchResult result;
    private final transient List<BatchConflict> conflicts;

    /**
     * Creates the exception.
     *
     * @param namespace the batch namespace
     * @param keyCount  how many keys were asked for
     * @param result    why they were not acquired
     * @param conflicts the conflicting keys found (capped)
     */
    public BatchLockUnavailableException(String namespace, int keyCount, BatchResult result,
                                         List<BatchConflict> conflicts) {
        super("job-guard could not lock " + keyCount + " key(s) in batch namespace '" + namespace + "': " + result
                + (conflicts.isEmpty() ? "" : ", conflicting " + conflicts));
        this.namespace = namespace;
        this.result = result;
        this.conflicts = List.copyOf(conflicts);
    }

    /**
     * Returns the batch namespace.
     *
     * @return the batch namespace
     */
    public String namespace() {
        return namespace;
    }

    /**
     * Returns why the keys were not acquired.
     *
     * @return the result
     */
    public BatchResult result() {
        return result;
    }

    /**
     * Returns the conflicting keys and their holders (capped).
     *
     * @return the conflicts
     */
    public List<BatchConflict> conflicts() {
        return conflicts == null ? List.of() : conflicts;
    }
}
