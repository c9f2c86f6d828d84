package io.jobguard.spring.boot;

import io.jobguard.JobGuardConfig;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLocks;
import io.jobguard.redis.RedisBatchLocks;
import io.jobguard.store.LeaseStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.Locale;

/**
 * Auto-configures batch locks: a {@link RedisBatchLocks} bean on the application's
 * {@link RedisConnectionFactory} with {@code jobguard.key-prefix}, this node's id and the
 * {@code jobguard.batch.*} settings. The bean is created when something asks for it (an injection
 * point, or {@code @BatchLocked} methods, which the {@code @EnableJobGuard} import wires and checks
 * at startup), so applications that use no batch locks pay nothing. Creating it fails, naming the
 * store, when the lease store has no fencing tokens ({@code jobguard.store=shedlock}), and when
 * there is no {@code RedisConnectionFactory}.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "jobguard.enabled", matchIfMissing = true)
public class JobGuardBatchAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardBatchAutoConfiguration() {
    }

    /**
     * The batch locks, created on first request.
     *
     * @param properties the properties
     * @param config     supplies this node's id
     * @param store      the lease store, whose fencing support batch locks require
     * @param redis      the application's Redis connections
     * @return the batch locks, closed with the context
     * @throws IllegalStateException if the store has no fencing, Redis is missing or a setting is invalid
     */
    @Bean(destroyMethod = "close")
    @Lazy
    @ConditionalOnMissingBean(BatchLocks.class)
    BatchLocks jobGuardBatchLocks(JobGuardProperties properties, ObjectProvider<JobGuardConfig> config,
                                  ObjectProvider<LeaseStore> store, ObjectProvider<RedisConnectionFactory> redis) {
        LeaseStore leases = store.getIfAvailable();
        if (leases != null && !leases.supportsFencing()) {
            throw new IllegalStateException("job-guard batch locks (bean 'jobGuardBatchLocks') need a lease store "
                    + "with fencing tokens, but the configured store " + leases + " (jobguard.store="
                    + properties.getStore().name().toLowerCase(Locale.ROOT).replace('_', '-')
                    + ") has none: use jobguard.store=redis, or remove @BatchLocked methods and BatchLocks injection "
                    + "points");
        }
        RedisConnectionFactory factory = redis.getIfAvailable();
        if (factory == null) {
            throw new IllegalStateException("job-guard batch locks (bean 'jobGuardBatchLocks') need Redis but the "
                    + "application has no RedisConnectionFactory bean: add spring-boot-starter-data-redis and "
                    + "configure spring.data.redis.*, or define your own BatchLocks bean");
        }
        JobGuardProperties.Batch batch = properties.getBatch();
        BatchLockConfig.Builder builder = BatchLockConfig.custom()
                .chunkSize(batch.getChunkSize())
                .maxKeys(batch.getMaxKeys())
                .maxKeyLength(batch.getMaxKeyLength())
                .spread(batch.isSpread())
                .keepAlive(batch.isKeepAlive())
                .waitPollInterval(batch.getWaitPollInterval());
        JobGuardConfig guardConfig = config.getIfAvailable();
        if (guardConfig != null) {
            builder.nodeId(guardConfig.nodeId());
        } else if (properties.getNodeId() != null) {
            builder.nodeId(properties.getNodeId());
        }
        try {
            return RedisBatchLocks.create(factory, properties.getKeyPrefix(), builder.build());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid jobguard.batch.* configuration: " + e.getMessage(), e);
        }
    }
}
