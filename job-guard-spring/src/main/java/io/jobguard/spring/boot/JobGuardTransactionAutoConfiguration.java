package io.jobguard.spring.boot;

import io.jobguard.spring.tx.LeaseCheckingTransactionManagers;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.transaction.ConfigurableTransactionManager;

/**
 * Makes transactions begun inside guarded runs check the run's lease before they commit (rolling back with
 * {@code LeaseLostException} when it is gone). On when spring-tx is present; off with
 * {@code jobguard.transactions.check-lease=false} or {@code jobguard.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnClass(ConfigurableTransactionManager.class)
@ConditionalOnBooleanProperty(name = "jobguard.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "jobguard.transactions.check-lease", matchIfMissing = true)
public class JobGuardTransactionAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardTransactionAutoConfiguration() {
    }

    /**
     * Adds the lease check to every transaction manager bean.
     *
     * @return the post-processor (static: it must exist before the transaction managers)
     */
    @Bean
    @ConditionalOnMissingBean
    static LeaseCheckingTransactionManagers jobGuardLeaseCheckingTransactionManagers() {
        return new LeaseCheckingTransactionManagers();
    }
}
