package io.jobguard.spring.boot3;

import io.jobguard.spring.boot.JobGuardRedisProperties;
import io.jobguard.spring.boot.LettuceReconnectDelay;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 3.5: caps the reconnect backoff of Boot's Lettuce client resources at
 * {@code jobguard.redis.reconnect-delay-max}, the same backoff as on Boot 4 ({@link LettuceReconnectDelay}).
 */
@AutoConfiguration
@ConditionalOnClass(name = {"io.lettuce.core.resource.ClientResources",
        "org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer"})
@ConditionalOnBooleanProperty(name = "jobguard.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "jobguard.store", havingValue = "redis", matchIfMissing = true)
@EnableConfigurationProperties(JobGuardRedisProperties.class)
public class Boot3LettuceAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public Boot3LettuceAutoConfiguration() {
    }

    /**
     * The customizer.
     *
     * @param properties the properties
     * @return the customizer (an application bean of the same name replaces it)
     */
    @Bean
    @ConditionalOnMissingBean(name = "jobGuardReconnectDelay")
    ClientResourcesBuilderCustomizer jobGuardReconnectDelay(JobGuardRedisProperties properties) {
        return builder -> LettuceReconnectDelay.cappedAt(properties.reconnectDelayMax()).ifPresent(builder::reconnectDelay);
    }
}
