package io.jobguard.spring.batch;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The {@link io.jobguard.BatchLocked} methods found on the beans of one application context, with
 * their batch namespaces; filled while beans are proxied, so complete once the context has
 * started. Thread-safe. Reports (the actuator endpoint) read it; it changes nothing.
 */
public final class BatchLockedMethods {

    private final Map<String, String> namespaceByMethod = new ConcurrentSkipListMap<>();

    /** Creates an empty registry; {@link BatchLockingConfiguration} creates the context's one. */
    public BatchLockedMethods() {
    }

    void add(String method, String namespace) {
        namespaceByMethod.put(method, namespace);
    }

    /**
     * Returns the annotated methods.
     *
     * @return method references ({@code com.example.Inventory.reserve()}), sorted
     */
    public List<String> methods() {
        return List.copyOf(namespaceByMethod.keySet());
    }

    /**
     * Returns the batch namespaces the methods lock keys in.
     *
     * @return the namespaces, sorted and distinct
     */
    public Set<String> namespaces() {
        Collection<String> all = namespaceByMethod.values();
        return Set.copyOf(new TreeSet<>(all));
    }

    /**
     * Whether no annotated method was found.
     *
     * @return true if there is none
     */
    public boolean isEmpty() {
        return namespaceByMethod.isEmpty();
    }
}
