package io.jobguard.spring.boot;

import io.jobguard.JobGuardConfig;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLocks;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.spring.batch.BatchLockedDefaults;
import io.jobguard.spring.batch.BatchLockingConfiguration;
import io.jobguard.store.LeaseStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.Locale;

/**
 * Auto-configures batch locks on business keys: a {@link RedisBatchLocks} bean on the
 * application's Redis, with the same key prefix and {@link io.jobguard.NodeConfig} as the job leases. It also
 * defines the {@code @BatchLocked} advisor with its {@link BatchLockedDefaults} from {@code jobguard.batch.*}, and
 * the batch meters when Micrometer is present. Backs off when the
 * application defines its own {@link BatchLocks}; off with {@code jobguard.batch.enabled=false}. The bean is created
 * when something asks for it (an injection point, {@code @BatchLocked} methods, the actuator
 * endpoint); creating it fails, naming the bean and the store, when the lease store has no fencing
 * tokens ({@code jobguard.store=shedlock}), so such applications start as long as they use no
 * batch locks.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class, afterName = {
        AutoConfigurationNames.METRICS_BOOT4_REGISTRY, AutoConfigurationNames.METRICS_BOOT4_COMPOSITE,
        AutoConfigurationNames.METRICS_BOOT4_SIMPLE, AutoConfigurationNames.METRICS_BOOT3_REGISTRY,
        AutoConfigurationNames.METRICS_BOOT3_COMPOSITE, AutoConfigurationNames.METRICS_BOOT3_SIMPLE})
@ConditionalOnBooleanProperty(name = {"jobguard.enabled", "jobguard.batch.enabled"}, matchIfMissing = true)
@ConditionalOnBean({RedisConnectionFactory.class, JobGuardConfig.class})
@EnableConfigurationProperties({JobGuardProperties.class, JobGuardBatchProperties.class})
@Import(BatchLockingConfiguration.class)
public class JobGuardBatchAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardBatchAutoConfiguration() {
    }

    /**
     * The batch locks.
     *
     * @param redis      the application's Redis connections
     * @param properties {@code jobguard.*}, for the key prefix
     * @param batch      {@code jobguard.batch.*}
     * @param config     the engine configuration, for its node
     * @param store      the lease store, whose fencing support batch locks require
     * @return the batch locks, closed with the context
     * @throws IllegalStateException naming the invalid {@code jobguard.batch.*} setting, or the store
     *                               when it has no fencing tokens
     */
    @Bean(destroyMethod = "close")
    @Lazy
    @ConditionalOnMissingBean(BatchLocks.class)
    RedisBatchLocks jobGuardBatchLocks(RedisConnectionFactory redis, JobGuardProperties properties,
                                       JobGuardBatchProperties batch, JobGuardConfig config,
                                       ObjectProvider<LeaseStore> store) {
        LeaseStore leases = store.getIfAvailable();
        if (leases != null && !leases.supportsFencing()) {
            throw new IllegalStateException("job-guard batch locks (bean 'jobGuardBatchLocks') need a lease store "
                    + "with fencing tokens, but the configured store " + leases + " (jobguard.store="
                    + properties.store().name().toLowerCase(Locale.ROOT).replace('_', '-') + ") has none: "
                    + "use jobguard.store=redis, or remove the @BatchLocked methods and BatchLocks injection points");
        }
        try {
            BatchLockConfig batchConfig = BatchLockConfig.builder()
                    .node(config.node())
                    .chunkSize(batch.chunkSize())
                    .maxKeys(batch.maxKeys())
                    .maxKeyLength(batch.maxKeyLength())
                    .keepAlive(batch.keepAlive())
                    .spread(batch.spread())
                    .waitPollInterval(batch.waitPollInterval())
                    .build();
            return RedisBatchLocks.create(redis, properties.keyPrefix(), batchConfig);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid jobguard.batch.* configuration: " + e.getMessage(), e);
        }
    }

    /**
     * The lease and wait of {@code @BatchLocked} methods that set none, from the bound record: the advisor reads
     * them as values and never the {@code Environment}.
     *
     * @param batch {@code jobguard.batch.*}
     * @return {@code jobguard.batch.default-lease} and {@code jobguard.batch.default-wait-for}
     */
    @Bean
    @ConditionalOnMissingBean
    BatchLockedDefaults jobGuardBatchLockedDefaults(JobGuardBatchProperties batch) {
        return new BatchLockedDefaults(batch.defaultLease(), batch.defaultWaitFor());
    }

    /** Batch meters, when Micrometer and a registry are present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    @ConditionalOnBean(MeterRegistry.class)
    static class BatchMetricsConfiguration {

        /**
         * Binds batch meters to each {@code BatchLocks} bean when it is created (binding eagerly
         * would create the lazy bean).
         *
         * @param registry the meter registry
         * @return the post-processor
         */
        @Bean
        @ConditionalOnMissingBean
        static BatchLockMetricsBinder jobGuardBatchLockMetricsBinder(ObjectProvider<MeterRegistry> registry) {
            return new BatchLockMetricsBinder(registry);
        }
    }
}
