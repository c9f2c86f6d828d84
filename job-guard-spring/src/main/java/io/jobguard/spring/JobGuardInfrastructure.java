package io.jobguard.spring;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.spring.firing.ClusterSingletonPostProcessor;
import io.jobguard.spring.firing.FiringConfiguration;
import io.jobguard.spring.firing.GuardedJobRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The beans behind {@link EnableJobGuard}: the post-processor that validates and advises guarded
 * methods (with the application's {@link JobOptionsCustomizer}s), the rest of the firing path
 * ({@link FiringConfiguration}: the registry of guarded methods, the scheduler decorator that
 * supplies nominal fire times, the startup check that every guarded schedule goes through it), the
 * startup report (one INFO line; a WARN when scheduling is not enabled), the closer that shuts job-guard's Redis subscriptions before
 * the connection factory stops, and the graceful hand-over of running runs' leases just before that.
 * They are infrastructure, not meant to be replaced.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@Import(FiringConfiguration.class)
class JobGuardInfrastructure {

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
}
