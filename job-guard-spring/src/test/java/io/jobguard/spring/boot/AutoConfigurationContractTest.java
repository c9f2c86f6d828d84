package io.jobguard.spring.boot;

import io.jobguard.spring.actuator.JobGuardEndpointAutoConfiguration;
import io.jobguard.spring.actuator.JobGuardHealthAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every auto-configured bean can be replaced by the application's own, and every auto-configuration is registered. */
class AutoConfigurationContractTest {

    private static final List<Class<?>> AUTO_CONFIGURATIONS = List.of(JobGuardAutoConfiguration.class,
            JobGuardMetricsAutoConfiguration.class, JobGuardEndpointAutoConfiguration.class,
            JobGuardBatchAutoConfiguration.class, JobGuardRedisAutoConfiguration.class, JobGuardLettuceAutoConfiguration.class,
            JobGuardTransactionAutoConfiguration.class, JobGuardHealthAutoConfiguration.class);

    @Test
    void everyBeanMethodIsConditionalOnMissingBean() {
        // nested @Configuration classes of the auto-configurations count too
        List<Method> beans = AUTO_CONFIGURATIONS.stream()
                .flatMap(c -> java.util.stream.Stream.concat(java.util.stream.Stream.of(c),
                        Arrays.stream(c.getDeclaredClasses())))
                .flatMap(c -> Arrays.stream(c.getDeclaredMethods()))
                .filter(m -> m.isAnnotationPresent(Bean.class))
                .toList();
        assertThat(beans).hasSizeGreaterThanOrEqualTo(10);
        assertThat(beans).allSatisfy(m -> assertThat(m.isAnnotationPresent(ConditionalOnMissingBean.class))
                .as("%s.%s is @ConditionalOnMissingBean", m.getDeclaringClass().getSimpleName(), m.getName())
                .isTrue());
    }

    @Test
    void everyAutoConfigurationIsRegisteredInTheImportsFile() throws IOException {
        String imports;
        try (InputStream in = getClass().getResourceAsStream(
                "/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            assertThat(in).isNotNull();
            imports = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(imports.lines().map(String::trim).filter(l -> !l.isEmpty()).toList())
                .containsExactlyInAnyOrderElementsOf(AUTO_CONFIGURATIONS.stream().map(Class::getName).toList());
        assertThat(AUTO_CONFIGURATIONS).allSatisfy(c -> assertThat(c.isAnnotationPresent(AutoConfiguration.class))
                .isTrue());
    }

    @Test
    void propertiesCarryConfigurationMetadata() throws IOException {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(metadata).contains("\"jobguard.namespace\"", "\"jobguard.node-id\"", "\"jobguard.key-prefix\"",
                "\"jobguard.default-lease\"", "\"jobguard.default-wait-for\"", "\"jobguard.busy-grace\"",
                "\"jobguard.skew-tolerance\"", "\"jobguard.schedule-check-interval\"",
                "\"jobguard.on-store-failure\"", "\"jobguard.keep-alive\"", "\"jobguard.jobs\"", "\"jobguard.store\"",
                "\"jobguard.enabled\"", "\"jobguard.actuator.force-release-enabled\"",
                "\"jobguard.actuator.write-enabled\"", "\"jobguard.actuator.write-role\"",
                "\"jobguard.actuator.unhealthy-status\"", "\"jobguard.scheduler-bypass\"", "\"jobguard.batch.chunk-size\"",
                "\"jobguard.batch.max-keys\"", "\"jobguard.batch.max-key-length\"", "\"jobguard.batch.spread\"",
                "\"jobguard.batch.keep-alive\"", "\"jobguard.batch.wait-poll-interval\"",
                "\"jobguard.batch.default-lease\"", "\"jobguard.batch.default-wait-for\"",
                "\"jobguard.batch.namespaces\"", "\"jobguard.transactions.check-lease\"", "\"in-memory\"", "\"shedlock\"",
                "\"jobguard.redis.eviction-check\"", "\"jobguard.redis.reconnect-delay-max\"",
                "\"jobguard.redis.durable-acquire.replicas\"", "\"jobguard.redis.durable-acquire.timeout\"");
    }
}
