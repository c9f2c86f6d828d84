package io.jobguard.store;

import io.jobguard.shedlock.ShedLockDatabase;
import io.jobguard.shedlock.ShedLockLeaseStore;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * The lease-store contract through the ShedLock bridge, over ShedLock's JDBC provider on
 * PostgreSQL (H2 when PostgreSQL is absent); one provider and one store per node.
 */
class ShedLockLeaseStoreIT extends LeaseStoreContract {

    @Override
    protected Set<Class<?>> capabilities() {
        return Set.of();
    }

    @Override
    protected LeaseStore newStore(String nodeId) {
        return ShedLockLeaseStore.create(ShedLockDatabase.get().provider(nodeId), Clock.systemUTC(),
                Duration.ofMillis(100));
    }
}
