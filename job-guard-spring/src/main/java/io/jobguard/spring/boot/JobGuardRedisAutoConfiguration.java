package io.jobguard.spring.boot;

import io.lettuce.core.resource.Delay;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Duration;

/**
 * What job-guard needs from the application's Redis beyond its scripts: a startup check
 * that Redis will not evict job-guard's keys ({@code jobguard.redis.eviction-check}), and prompt
 * reconnects of Boot's Lettuce client after Redis went away ({@code jobguard.redis.reconnect-delay-max}).
 * Both apply only with {@code jobguard.store=redis} (the default).
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
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

    /** Lettuce only: caps the reconnect backoff of Boot's client resources. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.lettuce.core.resource.ClientResources")
    static class LettuceReconnect {

        /**
         * Caps Lettuce's reconnect delay: its default backoff doubles up to 30 s, so after an
         * outage of ten seconds the next attempt could come about eight seconds after Redis is
         * back, and every guarded firing meanwhile is skipped.
         *
         * @param properties the properties
         * @return the customizer (an application bean of the same name replaces it)
         */
        @Bean
        @ConditionalOnMissingBean(name = "jobGuardReconnectDelay")
        ClientResourcesBuilderCustomizer jobGuardReconnectDelay(JobGuardRedisProperties properties) {
            Duration max = properties.reconnectDelayMax();
            return builder -> {
                if (max != null && !max.isZero() && !max.isNegative()) {
                    builder.reconnectDelay(Delay.exponential(Duration.ofMillis(Math.min(10, max.toMillis())), max, 2,
                            java.util.concurrent.TimeUnit.MILLISECONDS));
                }
            };
        }
    }
}
