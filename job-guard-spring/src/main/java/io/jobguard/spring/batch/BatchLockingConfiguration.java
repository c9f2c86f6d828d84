package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchLocks;
import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import io.micrometer.observation.ObservationRegistry;
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
 * needed. Methods without a {@code lease} or {@code waitFor} attribute use the context's
 * {@link BatchLockedDefaults} bean (the Spring Boot auto-configuration defines it from
 * {@code jobguard.batch.default-lease} and {@code jobguard.batch.default-wait-for}), or
 * {@link BatchLockedDefaults#standard()} (five minutes; a wait as long as the lease) when there is none.
 * Once every singleton exists, a context with annotated methods but no usable {@link BatchLocks} bean
 * fails to start, naming a method.
 */
@Configuration(proxyBeanMethods = false)
@Import(BatchLockingConfiguration.AutoProxy.class)
public class BatchLockingConfiguration {

    /** The lease of {@link BatchLocked} methods that do not set one. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(5);

    /** Creates the configuration; Spring calls this. */
    public BatchLockingConfiguration() {
    }

    /** The bean name of the context's {@link BatchLockedMethods}. */
    public static final String METHODS_BEAN = "io.jobguard.spring.batch.batchLockedMethods";

    /**
     * The registry of annotated methods, filled by the advisor.
     *
     * @return an empty registry
     */
    @Bean(name = METHODS_BEAN)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static BatchLockedMethods batchLockedMethods() {
        return new BatchLockedMethods();
    }

    /**
     * The advisor that wraps {@link BatchLocked} methods.
     *
     * @param locks       the batch locks, looked up on first use
     * @param methods     where found methods are recorded
     * @param defaults     the lease and wait of methods that set none, looked up when the first annotated
     *                     method is found; {@link BatchLockedDefaults#standard()} when the context has none
     * @param observations the registry of the {@code jobguard.batch} observations, if any
     * @return the advisor
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor batchLockedAdvisor(ObjectProvider<BatchLocks> locks, BatchLockedMethods methods,
                                             ObjectProvider<BatchLockedDefaults> defaults,
                                             ObjectProvider<ObservationRegistry> observations) {
        return new BatchLockedAdvisor(locks, methods, () -> defaults.getIfAvailable(BatchLockedDefaults::standard),
                observations);
    }

    /** Registers the infrastructure auto-proxy creator, as {@code @EnableTransactionManagement} does. */
    static final class AutoProxy implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
