package io.jobguard.spring.actuator;

import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockEvent;
import io.jobguard.batch.BatchLockListener;
import io.jobguard.batch.BatchLocks;
import io.jobguard.store.LeaseRecord;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live batch leases the endpoint lists, cluster-wide, for the batch namespaces this node knows:
 * those configured in {@code jobguard.batch.namespaces}, those of {@code @BatchLocked} methods and
 * those it has used since it started
 * (nodes of one application use the same namespaces, so after a few operations every node lists
 * the same leases). Reads the index of live leases; never scans keys.
 */
final class BatchLeaseView implements BatchLockListener {

    private final BatchLocks locks;
    private final Set<String> namespaces = ConcurrentHashMap.newKeySet();

    BatchLeaseView(BatchLocks locks, Collection<String> configuredNamespaces) {
        this.locks = locks;
        this.namespaces.addAll(configuredNamespaces);
        locks.addListener(this);
    }

    List<JobGuardEndpoint.BatchLeaseEntry> leases(Collection<String> declared) {
        namespaces.addAll(declared);
        List<JobGuardEndpoint.BatchLeaseEntry> out = new ArrayList<>();
        for (String namespace : namespaces.stream().sorted().toList()) {
            for (LeaseRecord r : locks.liveLeases(namespace)) {
                out.add(new JobGuardEndpoint.BatchLeaseEntry(namespace, r.describeHolder(), r.acquiredAt(),
                        r.expiresIn() == null ? null : r.expiresIn().toString(), r.fencingToken(), r.foreign()));
            }
        }
        return out;
    }

    @Override
    public void onAcquisition(BatchLockEvent event) {
        namespaces.add(event.namespace());
    }

    @Override
    public void onLeaseLost(BatchLease lease) {
        // the endpoint only needs the namespaces
    }
}
