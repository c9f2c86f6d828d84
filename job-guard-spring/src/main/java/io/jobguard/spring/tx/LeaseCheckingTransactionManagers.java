package io.jobguard.spring.tx;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;

/**
 * Adds one {@link LeaseCheckingTransactionListener} to every {@link ConfigurableTransactionManager} bean
 * (the application's own and auto-configured ones), so that commits inside guarded runs check the lease.
 */
public final class LeaseCheckingTransactionManagers implements BeanPostProcessor {

    private final LeaseCheckingTransactionListener listener = new LeaseCheckingTransactionListener();

    /** Creates the post-processor. */
    public LeaseCheckingTransactionManagers() {
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof ConfigurableTransactionManager manager) {
            listener.addTo(manager);
        }
        return bean;
    }
}
