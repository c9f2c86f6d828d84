package io.jobguard.micrometer;

import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockEvent;
import io.jobguard.batch.BatchLockListener;
import io.jobguard.batch.BatchLocks;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Locale;
import java.util.Objects;

/**
 * Publishes a {@link BatchLocks} instance's acquisitions and lost leases as the batch meters named
 * in {@link MetricNames}. They are {@link MetricNames#BATCH_ACQUIRE} (timer, tags result and namespace),
 * {@link MetricNames#BATCH_KEYS} (keys per acquisition, tag namespace) and
 * {@link MetricNames#LEASE_LOST} (tags job = the batch namespace, namespace). Bind it once; it
 * registers itself as a listener.
 */
public final class BatchLockMetrics implements MeterBinder, BatchLockListener {

    private final BatchLocks locks;
    private final BoundRegistry registry = new BoundRegistry("BatchLockMetrics");

    /**
     * Creates the binder.
     *
     * @param locks the batch locks to observe
     */
    public BatchLockMetrics(BatchLocks locks) {
        this.locks = Objects.requireNonNull(locks, "locks");
    }

    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        registry.bind(meterRegistry);
        locks.addListener(this);
    }

    @Override
    public void onAcquisition(BatchLockEvent event) {
        MeterRegistry r = registry.get();
        if (r == null) {
            return;
        }
        Timer.builder(MetricNames.BATCH_ACQUIRE)
                .tags(MetricNames.TAG_RESULT, event.result().name().toLowerCase(Locale.ROOT),
                        MetricNames.TAG_NAMESPACE, event.namespace())
                .description("Batch lock acquisitions, waits included").register(r).record(event.elapsed());
        DistributionSummary.builder(MetricNames.BATCH_KEYS).tags(MetricNames.TAG_NAMESPACE, event.namespace())
                .description("Distinct keys per batch acquisition").register(r).record(event.keyCount());
    }

    @Override
    public void onLeaseLost(BatchLease lease) {
        registry.leaseLost(lease.namespace(), lease.namespace());
    }
}
