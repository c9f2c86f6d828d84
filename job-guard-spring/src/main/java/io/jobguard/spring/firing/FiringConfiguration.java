package io.jobguard.spring.firing;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Defines the firing path's beans, so that each guarded {@code @Scheduled} firing carries its nominal fire time.
 * They are the registry of guarded methods, the scheduler decorator that gives each firing its fire time, and the
 * startup check that every guarded schedule goes through that decorator. They sit around the
 * {@link ClusterSingletonPostProcessor}, which {@code @EnableJobGuard} defines with the application's
 * {@code JobOptionsCustomizer}s. Imported by {@code @EnableJobGuard}; infrastructure, not meant to be
 * replaced or imported by applications.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
public class FiringConfiguration {

    /** The name of the {@link GuardedJobRegistry} bean. */
    static final String REGISTRY_BEAN = "io.jobguard.spring.firing.guardedJobRegistry";

    /** Created by Spring when {@code @EnableJobGuard} imports it. */
    FiringConfiguration() {
    }

    @Bean(name = REGISTRY_BEAN)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static GuardedJobRegistry jobGuardGuardedJobRegistry(ClusterSingletonPostProcessor postProcessor) {
        return postProcessor.registry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static NominalFireTimeConfigurer jobGuardNominalFireTimeConfigurer(ClusterSingletonPostProcessor postProcessor) {
        return new NominalFireTimeConfigurer(postProcessor.registry(), postProcessor.fireTimeHandOff());
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static GuardInPathCheck jobGuardGuardInPathCheck(GuardedJobRegistry registry,
                                                     ObjectProvider<SchedulerBypass> bypass) {
        SchedulerBypass chosen = bypass.getIfAvailable();
        return new GuardInPathCheck(registry, chosen == null ? null : chosen.mode());
    }
}
