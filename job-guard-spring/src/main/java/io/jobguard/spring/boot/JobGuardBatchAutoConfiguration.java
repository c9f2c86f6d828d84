package io.jobguard.spring.boot;

import io.jobguard.JobGuardConfig;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLocks;
import io.jobguard.micrometer.BatchLockMetrics;
import io.jobguard.redis.RedisBatchLocks;
import io.jobguard.spring.batch.BatchLockingConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Auto-configures batch locks on business keys: a {@link RedisBatchLocks} bean on the
 * application's Redis (same key prefix and node id as the job leases), the {@code @BatchLocked}
 * advisor, and the batch meters when Micrometer is present. Backs off when the application defines
 * its own {@link BatchLocks}; off with {@code jobguard.batch.enabled=false}.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
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
     * @param config     the engine configuration, for the node id
     * @return the batch locks, closed with the context
     * @throws IllegalStateException naming the invalid {@code jobguard.batch.*} setting
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(BatchLocks.class)
    RedisBatchLocks jobGuardBatchLocks(RedisConnectionFactory redis, JobGuardProperties properties,
                                       JobGuardBatchProperties batch, JobGuardConfig config) {
        try {
            BatchLockConfig batchConfig = BatchLockConfig.custom()
                    .nodeId(config.nodeId())
                    .chunkSize(batch.getChunkSize())
                    .maxKeys(batch.getMaxKeys())
                    .spread(batch.isSpread())
                    .waitPollInterval(batch.getWaitPollInterval())
                    .build();
            return RedisBatchLocks.create(redis, properties.getKeyPrefix(), batchConfig);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid jobguard.batch.* configuration: " + e.getMessage(), e);
        }
    }

    /** Batch meters, when Micrometer and a registry are present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    @ConditionalOnBean(MeterRegistry.class)
    static class BatchMetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        BatchLockMetrics jobGuardBatchLockMetrics(BatchLocks locks) {
            return new BatchLockMetrics(locks);
        }
    }
}
