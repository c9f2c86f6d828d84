package io.jobguard.spring.boot;

import io.jobguard.spring.actuator.JobGuardEndpointAutoConfiguration;
import io.jobguard.spring.actuator.JobGuardHealthAutoConfiguration;
import io.jobguard.testing.AutoConfigurationContract;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
        assertThat(AutoConfigurationContract.assertEveryBeanMethodIsConditionalOnMissingBean(AUTO_CONFIGURATIONS))
                .hasSizeGreaterThanOrEqualTo(10);
    }

    @Test
    void everyAutoConfigurationIsRegisteredInTheImportsFile() {
        AutoConfigurationContract.assertExactlyTheseAreRegistered(AUTO_CONFIGURATIONS);
    }

    @Test
    void propertiesCarryConfigurationMetadata() throws IOException {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // every @ConfigurationProperties record of this package, found on the class path
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        List<String> keys = new ArrayList<>();
        for (BeanDefinition found : scanner.findCandidateComponents(getClass().getPackageName())) {
            Class<?> record = ClassUtils.resolveClassName(found.getBeanClassName(), getClass().getClassLoader());
            keys.addAll(keys(record.getAnnotation(ConfigurationProperties.class).value(), record));
        }
        // the derivation itself must see nested groups and every record, or this test would prove nothing
        assertThat(keys).contains("jobguard.enabled", "jobguard.jobs", "jobguard.actuator.write-role",
                "jobguard.transactions.check-lease", "jobguard.scheduler-bypass", "jobguard.batch.default-wait-for",
                "jobguard.redis.durable-acquire.timeout");
        assertThat(keys).allSatisfy(key -> assertThat(metadata).as("metadata of %s", key).contains('"' + key + '"'));
        // the hints of jobguard.store
        assertThat(metadata).contains("\"in-memory\"", "\"shedlock\"");
    }

    /**
     * The keys a bound record declares under the prefix: one per component, in kebab case; a component whose type is
     * a record of this package is a group of keys of its own.
     */
    private static List<String> keys(String prefix, Class<?> record) {
        List<String> keys = new ArrayList<>();
        for (RecordComponent component : record.getRecordComponents()) {
            String key = prefix + "." + component.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
            Class<?> type = component.getType();
            if (type.isRecord() && type.getPackageName().equals(AutoConfigurationContractTest.class.getPackageName())) {
                keys.addAll(keys(key, type));
            } else {
                keys.add(key);
            }
        }
        return keys;
    }
}
