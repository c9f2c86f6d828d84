package io.jobguard.spring.boot;

/**
 * Spring Boot's own auto-configurations that job-guard's run after, by name on each Boot line (Boot 4 moved them to
 * per-technology modules). A name absent from the class path is ignored by {@code afterName}, so listing both lines'
 * names orders job-guard correctly on either.
 */
final class AutoConfigurationNames {

    /** Boot 4.x: {@code spring-boot-data-redis}. */
    static final String REDIS_BOOT4 = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration";
    /** Boot 3.5: {@code spring-boot-autoconfigure}. */
    static final String REDIS_BOOT3 = "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration";

    private static final String METRICS_BOOT4 = "org.springframework.boot.micrometer.metrics.autoconfigure.";
    private static final String METRICS_BOOT3 = "org.springframework.boot.actuate.autoconfigure.metrics.";

    static final String METRICS_BOOT4_REGISTRY = METRICS_BOOT4 + "MetricsAutoConfiguration";
    static final String METRICS_BOOT4_COMPOSITE = METRICS_BOOT4 + "CompositeMeterRegistryAutoConfiguration";
    static final String METRICS_BOOT4_SIMPLE = METRICS_BOOT4 + "export.simple.SimpleMetricsExportAutoConfiguration";
    static final String METRICS_BOOT3_REGISTRY = METRICS_BOOT3 + "MetricsAutoConfiguration";
    static final String METRICS_BOOT3_COMPOSITE = METRICS_BOOT3 + "CompositeMeterRegistryAutoConfiguration";
    static final String METRICS_BOOT3_SIMPLE = METRICS_BOOT3 + "export.simple.SimpleMetricsExportAutoConfiguration";

    private AutoConfigurationNames() {
    }
}
