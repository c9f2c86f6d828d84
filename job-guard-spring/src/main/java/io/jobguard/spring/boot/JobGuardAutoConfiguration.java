package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.internal.Names;
import io.jobguard.internal.options.OptionSources;
import io.jobguard.memory.InMemoryLeaseStore;
import io.jobguard.redis.DurableAcquire;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.spring.EnableJobGuard;
import io.jobguard.spring.JobGuardConfigCustomizer;
import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.spring.firing.MissedFireTimeRecoveryStarter;
import io.jobguard.spring.firing.ScheduledJobsDeclaration;
import io.jobguard.spring.firing.SchedulerBypass;
import io.jobguard.store.LeaseStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.Locale;

/**
 * Auto-configures job-guard: the {@link JobGuard} engine on a {@link LeaseStore}, with the
 * {@code @ClusterSingleton} integration of {@link EnableJobGuard}. The store is chosen by {@code jobguard.store}: Redis
 * on the application's {@link RedisConnectionFactory} by default, {@code in-memory} for one JVM, or
 * {@code shedlock} over the application's ShedLock {@code LockProvider}. Besides, it defines the node's
 * {@link NodeConfig} ({@code jobguard.node-id}), shared by the engine and the batch locks, the
 * {@link JobGuardConfig} from the
 * {@code jobguard.*} properties (then every {@link JobGuardConfigCustomizer}), per-job option overrides and a
 * periodic clock-skew check. Every bean backs off when the
 * application defines its own. Off with {@code jobguard.enabled=false}; when on, startup fails if
 * there is no {@code RedisConnectionFactory}.
 */
@AutoConfiguration(afterName = {AutoConfigurationNames.REDIS_BOOT4, AutoConfigurationNames.REDIS_BOOT3})
@ConditionalOnBooleanProperty(name = "jobguard.enabled", matchIfMissing = true)
@EnableConfigurationProperties(JobGuardProperties.class)
@EnableJobGuard
public class JobGuardAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(JobGuardAutoConfiguration.class);

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardAutoConfiguration() {
    }

    /**
     * The lease store chosen by {@code jobguard.store}.
     *
     * @param properties  the properties
     * @param redis       the application's Redis connections
     * @param beanFactory supplies the ShedLock {@code LockProvider} for {@code jobguard.store=shedlock}
     * @param redisProperties {@code jobguard.redis.*} (durable acquire)
     * @return the store
     * @throws IllegalStateException if the store needs a bean the application lacks
     */
    @Bean
    @ConditionalOnMissingBean
    LeaseStore jobGuardLeaseStore(JobGuardProperties properties, ObjectProvider<RedisConnectionFactory> redis,
                                  ListableBeanFactory beanFactory,
                                  ObjectProvider<JobGuardRedisProperties> redisProperties) {
        switch (properties.store()) {
            case IN_MEMORY:
                log.warn("job-guard: jobguard.store=in-memory: leases live in this JVM only; other instances of the "
                        + "application are NOT excluded (tests and single-instance deployments only)");
                return InMemoryLeaseStore.create();
            case SHEDLOCK:
                return ShedLockStores.create(beanFactory);
            case REDIS:
            default: {
                RedisConnectionFactory factory = redis.getIfAvailable();
                if (factory == null) {
                    throw new IllegalStateException("job-guard is enabled (jobguard.store=redis) but the application "
                            + "has no RedisConnectionFactory bean: add spring-boot-starter-data-redis and configure "
                            + "spring.data.redis.*, or set jobguard.enabled=false");
                }
                JobGuardRedisProperties redisSettings = redisProperties.getIfAvailable();
                return RedisLeaseStore.create(factory, properties.keyPrefix(),
                        redisSettings == null ? DurableAcquire.defaults() : redisSettings.durableAcquireSettings());
            }
        }
    }

    /**
     * What identifies this node: {@code jobguard.node-id}, or {@code hostname:pid} when unset. The
     * one node configuration of the application, given to the engine configuration (and through it
     * to the batch locks); inject it into a {@code JobGuardLockProvider} built by the application.
     *
     * @param properties the properties
     * @return the node configuration
     * @throws IllegalStateException naming {@code jobguard.node-id} when it breaks the name rules
     */
    @Bean
    @ConditionalOnMissingBean
    NodeConfig jobGuardNodeConfig(JobGuardProperties properties) {
        NodeConfig.Builder builder = NodeConfig.builder();
        try {
            if (properties.nodeId() != null) {
                builder.nodeId(properties.nodeId());
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid jobguard.* configuration: " + e.getMessage(), e);
        }
    }

    /**
     * The engine configuration from the properties, the node configuration and the customizers.
     *
     * @param properties  the properties
     * @param node        the node configuration
     * @param environment supplies {@code spring.application.name} as the default namespace
     * @param customizers applied in order after the properties
     * @return the configuration
     */
    @Bean
    @ConditionalOnMissingBean
    JobGuardConfig jobGuardConfig(JobGuardProperties properties, NodeConfig node, Environment environment,
                                  ObjectProvider<JobGuardConfigCustomizer> customizers) {
        String namespace = properties.namespace() != null ? properties.namespace()
                : environment.getProperty("spring.application.name", "default");
        if (properties.namespace() == null) {
            try {
                Names.namespace(namespace, "spring.application.name");
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(e.getMessage() + "; it is job-guard's namespace because "
                        + "jobguard.namespace is not set: set jobguard.namespace", e);
            }
        }
        try {
            JobGuardConfig.Builder builder = JobGuardConfig.builder()
                    .namespace(namespace)
                    .node(node)
                    .defaultLease(properties.defaultLease())
                    .skewTolerance(properties.skewTolerance())
                    .storeFailurePolicy(properties.onStoreFailure())
                    .interruptOnLeaseLost(properties.interruptOnLeaseLost())
                    .historySize(properties.effectiveHistorySize())
                    .historyRetention(properties.history().retention())
                    .spread(properties.spread().enabled());
            customizers.orderedStream().forEach(c -> c.customize(builder));
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid jobguard.* configuration: " + e.getMessage(), e);
        }
    }

    /**
     * The engine.
     *
     * @param store  the lease store
     * @param config the configuration
     * @return the engine, closed with the context
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    JobGuard jobGuard(LeaseStore store, JobGuardConfig config) {
        return JobGuard.create(store, config);
    }

    /**
     * The per-job properties and the {@code jobguard.*} defaults, as sources of each guarded method's options
     * beside its annotation.
     *
     * @param properties the properties
     * @return the sources
     */
    @Bean
    @ConditionalOnMissingBean
    OptionSources jobGuardOptionSources(JobGuardProperties properties) {
        return JobGuardPropertiesSources.of(properties);
    }

    /**
     * Runs each guarded job's recovery of lost fire times (the one in its options) once the application
     * is ready, so fire times lost while no node ran are not left until the next firing.
     *
     * @param registry   the guarded {@code @Scheduled} methods
     * @param guard      the engine
     * @param context    the application context
     * @return the starter
     */
    @Bean
    @ConditionalOnMissingBean
    MissedFireTimeRecoveryStarter jobGuardMissedFireTimeRecoveryStarter(ObjectProvider<GuardedJobRegistry> registry,
                                                          ObjectProvider<JobGuard> guard,
                                                          org.springframework.context.ApplicationContext context) {
        return new MissedFireTimeRecoveryStarter(registry, guard, context);
    }

    /**
     * Declares the guarded {@code @Scheduled} jobs to the engine once every bean exists, so that their fire times are
     * spread over the live fleet ({@code jobguard.spread.enabled}).
     *
     * @param registry the guarded {@code @Scheduled} methods
     * @param guard    the engine
     * @return the declaration
     */
    @Bean
    @ConditionalOnMissingBean
    ScheduledJobsDeclaration jobGuardScheduledJobsDeclaration(ObjectProvider<GuardedJobRegistry> registry,
                                                              ObjectProvider<JobGuard> guard) {
        return new ScheduledJobsDeclaration(registry, guard);
    }

    /**
     * Warns at startup about {@code jobguard.jobs.<name>} entries that match no guarded job.
     *
     * @param properties   the properties
     * @param registry     the guarded {@code @Scheduled} methods
     * @param contributors other guarded jobs (Quartz)
     * @return the check
     */
    @Bean
    @ConditionalOnMissingBean
    JobPropertiesCheck jobGuardJobPropertiesCheck(JobGuardProperties properties,
                                                  ObjectProvider<GuardedJobRegistry> registry,
                                                  ObjectProvider<GuardedJobsContributor> contributors) {
        return new JobPropertiesCheck(properties, registry, contributors);
    }

    /**
     * Warns at startup about {@code jobguard.*} properties that no setting binds (typos).
     *
     * @param environment the application's properties
     * @return the check
     */
    @Bean
    @ConditionalOnMissingBean
    static UnknownPropertiesCheck jobGuardUnknownPropertiesCheck(Environment environment) {
        return new UnknownPropertiesCheck(environment);
    }

    /**
     * What the startup check does with a guarded schedule that bypasses job-guard's scheduler, from the bound
     * record: the firing path reads it as a value and never the {@code Environment}.
     *
     * @param properties the properties
     * @return {@code jobguard.scheduler-bypass}
     */
    @Bean
    @ConditionalOnMissingBean
    static SchedulerBypass jobGuardSchedulerBypass(JobGuardProperties properties) {
        return new SchedulerBypass(properties.schedulerBypass());
    }

    /**
     * Measures the clock skew against Redis periodically.
     *
     * @param guard      the engine
     * @param properties the properties
     * @param sinks      where measurements go (the Micrometer gauge when present)
     * @return the monitor
     */
    @Bean
    @ConditionalOnMissingBean
    ClockSkewMonitor jobGuardClockSkewMonitor(JobGuard guard, JobGuardProperties properties,
                                              ObjectProvider<ClockSkewSink> sinks) {
        return new ClockSkewMonitor(guard, properties.clockSkewCheckInterval(), sinks.orderedStream().toList());
    }

    /**
     * Compares this node's job schedules with the other nodes' periodically and warns when they differ.
     *
     * @param guard        the engine
     * @param properties   the properties
     * @param registry     the guarded {@code @Scheduled} methods
     * @param contributors other guarded jobs (Quartz)
     * @return the check
     */
    @Bean
    @ConditionalOnMissingBean
    ScheduleAgreementCheck jobGuardScheduleAgreementCheck(JobGuard guard, JobGuardProperties properties,
                                                          ObjectProvider<GuardedJobRegistry> registry,
                                                          ObjectProvider<GuardedJobsContributor> contributors) {
        return new ScheduleAgreementCheck(guard, properties.scheduleCheckInterval(), registry, contributors);
    }

    /**
     * Refuses to start when {@code @BatchLocked} methods exist but no batch locks do.
     *
     * @param beanFactory the bean factory to scan
     * @param properties  the properties, to name the store
     * @return the check
     */
    @Bean
    @ConditionalOnMissingBean
    BatchLockedWithoutLocksCheck jobGuardBatchLockedCheck(ConfigurableListableBeanFactory beanFactory,
                                                          JobGuardProperties properties) {
        return new BatchLockedWithoutLocksCheck(beanFactory, properties.store().name().toLowerCase(Locale.ROOT));
    }
}
