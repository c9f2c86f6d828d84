package io.jobguard.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 4.x: caps the reconnect backoff of Boot's Lettuce client resources at
 * {@code jobguard.redis.reconnect-delay-max} ({@link LettuceReconnectDelay}). Its class condition names Boot 4's
 * customizer type, so on Boot 3.5 it stays off and {@code job-guard-spring-boot3} registers the same backoff through
 * Boot 3.5's type.
 */
@AutoConfiguration
@ConditionalOnClass(name = {"io.lettuce.core.resource.ClientResources",
        "org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer"})
@ConditionalOnBooleanProperty(name = "jobguard.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "jobguard.store", havingValue = "redis", matchIfMissing = true)
@EnableConfigurationProperties(JobGuardRedisProperties.class)
public class JobGuardLettuceAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardLettuceAutoConfiguration() {
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
