package io.jobguard.spring.actuator;

import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.JobGuard;
import io.jobguard.batch.BatchLocks;
import io.jobguard.shedlock.JobGuardLockProvider;
import io.jobguard.spring.batch.BatchLockedMethods;
import io.jobguard.spring.boot.JobGuardActuatorProperties;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import io.jobguard.spring.boot.JobGuardBatchAutoConfiguration;
import io.jobguard.spring.boot.JobGuardBatchProperties;
import io.jobguard.spring.boot.JobGuardProperties;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.store.LeaseStore;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.util.List;

/**
 * Registers the {@link JobGuardEndpoint} when Spring Boot Actuator is present, a {@link JobGuard}
 * exists and the endpoint is available ({@code management.endpoints.web.exposure.include=jobguard}).
 */
@AutoConfiguration(after = {JobGuardAutoConfiguration.class, JobGuardBatchAutoConfiguration.class})
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(JobGuard.class)
@ConditionalOnAvailableEndpoint(JobGuardEndpoint.class)
public class JobGuardEndpointAutoConfiguration {

    /** {@code jobguard.actuator.*} when no record is bound (no Boot binding): the record's defaults, every write off. */
    private static final JobGuardActuatorProperties UNBOUND = new JobGuardActuatorProperties(false, false, null,
            "UNKNOWN", false);

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardEndpointAutoConfiguration() {
    }

    /**
     * The endpoint.
     *
     * @param guard       the engine
     * @param registry    the guarded methods (empty when the integration is off)
     * @param environment supplies Boot's endpoint access when no resolver is present
     * @param batchLocks  the batch locks, if any
     * @param heldLocks   the ShedLock provider's held locks, if ShedLock is present
     * @param contributors other guarded jobs (Quartz)
     * @param methods     the {@code @BatchLocked} methods, whose namespaces are listed
     * @param store       the lease store: batch locks are only looked up when it has fencing tokens
     * @param beanFactory where run-now finds the bean of a job
     * @param access      Boot's endpoint access, which decides whether the write operations are mapped
     * @param properties  {@code jobguard.actuator.*} (force-release and the writes), through the bound record
     * @param batchProperties {@code jobguard.batch.namespaces}, through the bound record
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    JobGuardEndpoint jobGuardEndpoint(JobGuard guard, ObjectProvider<GuardedJobRegistry> registry,
                                      Environment environment, ObjectProvider<BatchLocks> batchLocks,
                                      ObjectProvider<HeldLocksSource> heldLocks,
                                      ObjectProvider<GuardedJobsContributor> contributors,
                                      ObjectProvider<BatchLockedMethods> methods, ObjectProvider<LeaseStore> store,
                                      BeanFactory beanFactory, ObjectProvider<EndpointAccessResolver> access,
                                      ObjectProvider<JobGuardProperties> properties,
                                      ObjectProvider<JobGuardBatchProperties> batchProperties) {
        // read through the bound records only; without them (no Boot binding) the records' defaults apply
        JobGuardActuatorProperties actuator = actuator(properties);
        JobGuardBatchProperties batch = batchProperties.getIfAvailable();
        List<String> namespaces = batch == null ? List.of() : batch.namespaces();
        JobGuardEndpoint endpoint = new JobGuardEndpoint(guard, registry.getIfAvailable(GuardedJobRegistry::new),
                actuator.forceReleaseEnabled(), fencing(store) ? batchLocks.getIfAvailable() : null, namespaces);
        heldLocks.ifAvailable(endpoint::heldLocksSource);
        endpoint.control(new JobControl(guard, registry.getIfAvailable(GuardedJobRegistry::new), beanFactory,
                actuator.writeEnabled(), actuator.writeRole(),
                name -> contributors.orderedStream().anyMatch(c -> c.guardedJobs().stream()
                        .anyMatch(j -> j.name().equals(name)))));
        endpoint.writable(writable(access, environment));
        endpoint.contributors(() -> contributors.orderedStream().toList());
        endpoint.batchNamespaces(() -> {
            BatchLockedMethods found = methods.getIfAvailable();
            return found == null ? List.of() : found.namespaces();
        });
        return endpoint;
    }

    /**
     * Lets a write request without {@code fireTime} (pause, resume, run-now) through to the endpoint on Boot 3.5 and 4.x
     * ({@link OptionalFireTime}); Boot applies every such advisor bean to the operations it discovers.
     *
     * @return the advisor
     */
    @Bean
    @ConditionalOnMissingBean
    static OptionalFireTime jobGuardOptionalFireTime() {
        return new OptionalFireTime();
    }

    /** {@code jobguard.actuator.*} through the bound record, or the record's defaults without one. */
    private static JobGuardActuatorProperties actuator(ObjectProvider<JobGuardProperties> properties) {
        JobGuardProperties bound = properties.getIfAvailable();
        return bound == null ? UNBOUND : bound.actuator();
    }

    /** Whether Boot maps the endpoint's write operations: its access resolves to unrestricted. */
    private static boolean writable(ObjectProvider<EndpointAccessResolver> access, Environment environment) {
        EndpointAccessResolver resolver = access.getIfAvailable();
        if (resolver != null) {
            return resolver.accessFor(EndpointId.of("jobguard"), Access.READ_ONLY) == Access.UNRESTRICTED;
        }
        return "unrestricted".equalsIgnoreCase(environment.getProperty(ReadOnlyWrites.ACCESS_PROPERTY, "read-only"));
    }

    /**
     * The dashboard page, a web extension of the endpoint, only with {@code jobguard.actuator.dashboard-enabled=true}
     * in a web application (servlet or reactive).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication
    @ConditionalOnProperty(name = "jobguard.actuator.dashboard-enabled", havingValue = "true")
    static class DashboardConfiguration {

        @Bean
        @ConditionalOnMissingBean
        JobGuardDashboard jobGuardDashboard() {
            return new JobGuardDashboard();
        }
    }

    /** A store without fencing refuses batch locks: do not create the (lazy) bean just to list leases. */
    private static boolean fencing(ObjectProvider<LeaseStore> store) {
        LeaseStore leases = store.getIfAvailable();
        return leases == null || leases.supportsFencing();
    }

    /**
     * The answers to writes on the read-only endpoint, from the actuator base path and the two write switches (read
     * through the bound record).
     */
    private static ReadOnlyWrites readOnlyWrites(Environment environment,
                                                 ObjectProvider<JobGuardProperties> properties) {
        JobGuardActuatorProperties actuator = actuator(properties);
        return new ReadOnlyWrites(environment.getProperty("management.endpoints.web.base-path", "/actuator"),
                actuator.forceReleaseEnabled(), actuator.writeEnabled());
    }

    /** A DELETE or POST the read-only endpoint does not map is answered with the settings it needs (servlet apps). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
    static class ServletConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ForceReleaseNotMappedResolver jobGuardForceReleaseNotMappedResolver(
                Environment environment, ObjectProvider<JobGuardProperties> properties) {
            return new ForceReleaseNotMappedResolver(readOnlyWrites(environment, properties));
        }
    }

    /** The same answer in WebFlux apps. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(name = "org.springframework.web.server.WebExceptionHandler")
    static class ReactiveConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ReadOnlyWriteWebFluxHandler jobGuardReadOnlyWriteWebFluxHandler(
                Environment environment, ObjectProvider<JobGuardProperties> properties) {
            return new ReadOnlyWriteWebFluxHandler(readOnlyWrites(environment, properties));
        }
    }

    /** The ShedLock provider's held locks, only when ShedLock is on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "net.javacrumbs.shedlock.core.ExtensibleLockProvider")
    static class ShedLockConfiguration {

        @Bean
        @ConditionalOnMissingBean
        HeldLocksSource jobGuardShedLocks(ObjectProvider<JobGuardLockProvider> providers) {
            return () -> providers.orderedStream().flatMap(p -> p.heldLocks().stream()).toList();
        }
    }
}
