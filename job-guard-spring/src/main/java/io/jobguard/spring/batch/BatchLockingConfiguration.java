package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.DurationParser;
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
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import java.time.Duration;

/**
 * Makes {@link BatchLocked} methods of every bean run only while their keys are locked, using the
 * context's {@link BatchLocks} bean. Import it (or let the Boot auto-configuration do so); it
 * registers Spring's infrastructure auto-proxy creator if none is present, so no AspectJ weaver is
 * needed. Methods without a {@code lease} attribute use {@code jobguard.batch.default-lease} (five
 * minutes when unset), methods without {@code waitFor} use {@code jobguard.batch.default-wait-for}
 * (their lease when unset). Once every singleton exists, a context with annotated methods but no
 * usable {@link BatchLocks} bean fails to start, naming a method.
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
     * @param environment supplies {@code jobguard.batch.default-lease} and {@code jobguard.batch.default-wait-for}
     * @param observations the registry of the {@code jobguard.batch} observations, if any
     * @return the advisor
     * @throws IllegalArgumentException if a default duration does not parse, naming the property
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor batchLockedAdvisor(ObjectProvider<BatchLocks> locks, BatchLockedMethods methods,
                                             Environment environment,
                                             ObjectProvider<ObservationRegistry> observations) {
        String lease = environment.getProperty("jobguard.batch.default-lease");
        String waitFor = environment.getProperty("jobguard.batch.default-wait-for");
        return new BatchLockedAdvisor(locks, methods,
                lease == null || lease.isBlank() ? DEFAULT_LEASE : DurationParser.parse(lease, "jobguard.batch.default-lease"),
                waitFor == null || waitFor.isBlank() ? null
                        : DurationParser.parse(waitFor, "jobguard.batch.default-wait-for"), observations);
    }

    /** Registers the infrastructure auto-proxy creator, as {@code @EnableTransactionManagement} does. */
    static final class AutoProxy implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
