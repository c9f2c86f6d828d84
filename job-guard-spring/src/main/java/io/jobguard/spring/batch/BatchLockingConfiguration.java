package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchLocks;
import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

import java.time.Duration;

/**
 * Makes {@link BatchLocked} methods of every bean run only while their keys are locked, using the
 * context's {@link BatchLocks} bean. Import it (or let the Boot auto-configuration do so); it
 * registers Spring's infrastructure auto-proxy creator if none is present, so no AspectJ weaver is
 * needed. Methods without a {@code lease} attribute use a lease of five minutes.
 */
@Configuration(proxyBeanMethods = false)
@Import(BatchLockingConfiguration.AutoProxy.class)
public class BatchLockingConfiguration {

    /** The lease of {@link BatchLocked} methods that do not set one. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(5);

    /** Creates the configuration; Spring calls this. */
    public BatchLockingConfiguration() {
    }

    /**
     * The advisor that wraps {@link BatchLocked} methods.
     *
     * @param locks the batch locks, looked up on first use
     * @return the advisor
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor batchLockedAdvisor(ObjectProvider<BatchLocks> locks) {
        return new BatchLockedAdvisor(locks, DEFAULT_LEASE);
    }

    /** Registers the infrastructure auto-proxy creator, as {@code @EnableTransactionManagement} does. */
    static final class AutoProxy implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
