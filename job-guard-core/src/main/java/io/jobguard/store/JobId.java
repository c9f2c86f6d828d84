package io.jobguard.store;

import java.util.Objects;

/**
 * A job's identity in a store: the namespace it belongs to and its cluster-wide name.
 *
 * @param namespace the namespace (isolates applications sharing a store)
 * @param name      the job name
 */
public record JobId(String namespace, String name) {

    /**
     * Checks both parts.
     *
     * @throws NullPointerException if a part is null
     */
    public JobId {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return namespace + ":" + name;
    }
}
