package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.batch.BatchLocks;
import io.jobguard.spring.batch.BatchLockedMethods;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import io.jobguard.spring.boot.JobGuardBatchAutoConfiguration;
import io.jobguard.spring.internal.GuardedJobRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Registers the {@link JobGuardEndpoint} when Spring Boot Actuator is present, a {@link JobGuard}
 * exists and the endpoint is available ({@code management.endpoints.web.exposure.include=jobguard}).
 */
@AutoConfiguration(after = {JobGuardAutoConfiguration.class, JobGuardBatchAutoConfiguration.class})
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(JobGuard.class)
@ConditionalOnAvailableEndpoint(JobGuardEndpoint.class)
public class JobGuardEndpointAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardEndpointAutoConfiguration() {
    }

    /**
     * The endpoint.
     *
     * @param guard       the engine
     * @param registry    the guarded methods (empty when the integration is off)
     * @param environment supplies {@code jobguard.actuator.force-release-enabled} and {@code jobguard.batch.namespaces}
     * @param contributors other guarded jobs (Quartz)
     * @param methods      the {@code @BatchLocked} methods, whose namespaces are listed
     * @param batchLocks   the batch locks, asked only when there are namespaces to list
     * @param beanFactory  supplies job-guard ShedLock providers, when ShedLock is present
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    JobGuardEndpoint jobGuardEndpoint(JobGuard guard, ObjectProvider<GuardedJobRegistry> registry,
                                      Environment environment, ObjectProvider<GuardedJobsContributor> contributors,
                                      ObjectProvider<BatchLockedMethods> methods, ObjectProvider<BatchLocks> batchLocks,
                                      ListableBeanFactory beanFactory) {
        boolean forceRelease = environment.getProperty("jobguard.actuator.force-release-enabled", Boolean.class, false);
        List<String> extra = Binder.get(environment).bind("jobguard.batch.namespaces", Bindable.listOf(String.class))
                .orElse(List.of());
        Supplier<Set<String>> namespaces = () -> {
            Set<String> all = new TreeSet<>(extra);
            methods.ifAvailable(m -> all.addAll(m.namespaces()));
            return all;
        };
        EndpointSources sources = new EndpointSources(() -> contributors.orderedStream().toList(), namespaces,
                batchLocks::getIfUnique, ShedLockHeldLocks.of(beanFactory));
        return new JobGuardEndpoint(guard, registry.getIfAvailable(GuardedJobRegistry::new), forceRelease, sources);
    }
}
