package io.jobguard.spring;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.spring.aop.ClusterSingletonPostProcessor;
import io.jobguard.spring.internal.GuardedJobRegistry;
import io.jobguard.spring.scheduling.GuardInPathCheck;
import io.jobguard.spring.scheduling.NominalFireTimeConfigurer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The beans behind {@link EnableJobGuard}: the registry of guarded methods, the post-processor
 * that validates and advises them, the scheduler decorator that supplies nominal fire times, the
 * startup check that every guarded schedule goes through it, the startup report (one INFO line; a
 * WARN when scheduling is not enabled), the closer that shuts job-guard's Redis subscriptions before
 * the connection factory stops, and the graceful hand-over of running runs' leases just before that.
 * They are infrastructure, not meant to be replaced.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
class JobGuardInfrastructure {

    static final String REGISTRY_BEAN = "io.jobguard.spring.internal.guardedJobRegistry";

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static ClusterSingletonPostProcessor jobGuardClusterSingletonPostProcessor(ObjectProvider<JobGuard> guard,
            ObjectProvider<JobOptionsCustomizer> customizers) {
        return new ClusterSingletonPostProcessor(new GuardedJobRegistry(), guard, (options, method) -> {
            JobOptions customized = options;
            for (JobOptionsCustomizer customizer : (Iterable<JobOptionsCustomizer>) customizers.orderedStream()::iterator) {
                customized = customizer.customize(customized, method);
            }
            return customized;
        });
    }

    @Bean(name = REGISTRY_BEAN)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static GuardedJobRegistry jobGuardGuardedJobRegistry(ClusterSingletonPostProcessor postProcessor) {
        return postProcessor.registry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static RedisClientsCloser jobGuardRedisClientsCloser(ConfigurableListableBeanFactory beanFactory) {
        return new RedisClientsCloser(beanFactory);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static StartupReport jobGuardStartupReport(ObjectProvider<JobGuard> guard, GuardedJobRegistry registry,
                                               ObjectProvider<GuardedJobsContributor> contributors,
                                               ConfigurableListableBeanFactory beanFactory) {
        return new StartupReport(guard, registry, contributors, beanFactory);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static LeaseHandOverOnShutdown jobGuardLeaseHandOverOnShutdown(ConfigurableListableBeanFactory beanFactory,
                                                                   Environment environment) {
        return new LeaseHandOverOnShutdown(beanFactory, environment);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static NominalFireTimeConfigurer jobGuardNominalFireTimeConfigurer(ClusterSingletonPostProcessor postProcessor) {
        return new NominalFireTimeConfigurer(postProcessor.registry(), postProcessor.fireTimes());
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static GuardInPathCheck jobGuardGuardInPathCheck(GuardedJobRegistry registry, Environment environment) {
        return new GuardInPathCheck(registry, environment.getProperty(GuardInPathCheck.PROPERTY, "fail"));
    }
}
