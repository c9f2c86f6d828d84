package io.jobguard.spring.observation;

import io.micrometer.observation.Observation;

import java.util.Objects;

/**
 * What the {@code jobguard.batch} observation of one {@code @BatchLocked} acquisition knows: the
 * namespace, how many keys were asked for, and once decided, the result.
 */
public final class BatchObservationContext extends Observation.Context {

    private final String namespace;
    private final int keyCount;
    private volatile String result;

    /**
     * Creates the context of one acquisition.
     *
     * @param namespace the batch namespace
     * @param keyCount  how many keys were asked for
     */
    public BatchObservationContext(String namespace, int keyCount) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.keyCount = keyCount;
    }

    /** @return the batch namespace */
    public String namespace() {
        return namespace;
    }

    /** @return how many keys were asked for */
    public int keyCount() {
        return keyCount;
    }

    /** @return the result ({@code BatchResult} name, or {@code ERROR}), or null while undecided */
    public String result() {
        return result;
    }

    /**
     * Records the result.
     *
     * @param result the result
     */
    public void result(String result) {
        this.result = result;
    }
}
