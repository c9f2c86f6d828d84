package io.jobguard.spring.boot;

import io.jobguard.batch.BatchLocks;
import io.jobguard.micrometer.BatchLockMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Binds a {@link BatchLockMetrics} to the meter registry for every {@link BatchLocks} bean when
 * that bean is created, whether auto-configured or the application's own, and however late (the
 * auto-configured one is lazy, so binding it eagerly would create it).
 */
final class BatchLockMetricsBinder implements BeanPostProcessor {

    private final ObjectProvider<MeterRegistry> registry;

    BatchLockMetricsBinder(ObjectProvider<MeterRegistry> registry) {
        this.registry = registry;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof BatchLocks locks) {
            MeterRegistry meters = registry.getIfUnique();
            if (meters != null) {
                new BatchLockMetrics(locks).bindTo(meters);
            }
        }
        return bean;
    }
}
