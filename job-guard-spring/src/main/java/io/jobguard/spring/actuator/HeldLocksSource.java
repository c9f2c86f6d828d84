package io.jobguard.spring.actuator;

import java.util.List;

/**
 * Locks held through job-guard's ShedLock provider on this node, for the endpoint. A separate type
 * so that the endpoint loads without ShedLock on the classpath.
 */
@FunctionalInterface
public interface HeldLocksSource {

    /**
     * The locks held now.
     *
     * @return a snapshot (records serialized as JSON)
     */
    List<?> heldLocks();
}
