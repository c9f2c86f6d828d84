package io.jobguard.spring.boot;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What job-guard needs from the application's Redis beyond its scripts: a startup check
 * that Redis will not evict job-guard's keys ({@code jobguard.redis.eviction-check}), and prompt
 * reconnects of Boot's Lettuce client after Redis went away ({@code jobguard.redis.reconnect-delay-max}).
 * Both apply only with {@code jobguard.store=redis} (the default). The reconnect customizer is registered by
 * {@link JobGuardLettuceAutoConfiguration} (Boot 4) or by {@code job-guard-spring-boot3} (Boot 3.5), because each line
 * names Boot's customizer type differently.
 */
@AutoConfiguration(afterName = {AutoConfigurationNames.REDIS_BOOT4, AutoConfigurationNames.REDIS_BOOT3})
@ConditionalOnBooleanProperty(name = "jobguard.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "jobguard.store", havingValue = "redis", matchIfMissing = true)
@EnableConfigurationProperties(JobGuardRedisProperties.class)
public class JobGuardRedisAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardRedisAutoConfiguration() {
    }

    /**
     * Checks Redis' maxmemory-policy once at startup.
     *
     * @param redis      the application's Redis connections (no check without them)
     * @param properties the properties
     * @return the check
     */
    @Bean
    @ConditionalOnMissingBean
    RedisEvictionPolicyCheck jobGuardRedisEvictionPolicyCheck(ObjectProvider<RedisConnectionFactory> redis,
                                                              JobGuardRedisProperties properties) {
        RedisConnectionFactory factory = redis.getIfAvailable();
        return new RedisEvictionPolicyCheck(factory, factory == null ? io.jobguard.redis.RedisEvictionCheck.Mode.OFF
                : properties.evictionCheck());
    }
}
