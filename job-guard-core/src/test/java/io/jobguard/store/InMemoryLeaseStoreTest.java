package io.jobguard.store;

import io.jobguard.memory.InMemoryLeaseStore;
import java.util.Set;

/** The lease-store contract on the in-memory store; every node of the test shares the one JVM store. */
class InMemoryLeaseStoreTest extends LeaseStoreContract {

    private final InMemoryLeaseStore store = InMemoryLeaseStore.create();

    @Override
    protected Set<Class<?>> capabilities() {
        return Set.of(RunHistory.class, OperatorControl.class);
    }

    @Override
    protected LeaseStore newStore(String nodeId) {
        return store;
    }
}
