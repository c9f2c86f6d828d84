package io.jobguard.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one registry a binder is bound to. Binding twice is a programming error (the binder registers
 * itself as a listener on binding, so a second binding would count every event twice); events that
 * come before the binding are not recorded.
 */
final class BoundRegistry {

    private final AtomicReference<MeterRegistry> registry = new AtomicReference<>();
    private final String binder;

    BoundRegistry(String binder) {
        this.binder = binder;
    }

    void bind(MeterRegistry meterRegistry) {
        Objects.requireNonNull(meterRegistry, "meterRegistry");
        if (!registry.compareAndSet(null, meterRegistry)) {
            throw new IllegalStateException(binder + " is already bound to a registry");
        }
    }

    /** The registry, or null before the binding. */
    MeterRegistry get() {
        return registry.get();
    }

    /**
     * Counts a lease lost while its run was alive in {@link MetricNames#LEASE_LOST} (nothing before the
     * binding). Run and batch leases count into this one meter, defined here once so that both binders give
     * it the same tag keys and description (Prometheus refuses one name with different tag keys).
     */
    void leaseLost(String job, String namespace) {
        MeterRegistry r = registry.get();
        if (r != null) {
            leaseLostCounter(r, job, namespace).increment();
        }
    }

    /** The {@link MetricNames#LEASE_LOST} counter of a job, registered at 0 if it is new. */
    static Counter leaseLostCounter(MeterRegistry r, String job, String namespace) {
        return Counter.builder(MetricNames.LEASE_LOST)
                .tags(MetricNames.TAG_JOB, job, MetricNames.TAG_NAMESPACE, namespace)
                .description("Leases lost while their run was alive").register(r);
    }
}
