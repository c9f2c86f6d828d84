package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.DurationParser;
import io.jobguard.JobOptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code jobguard.busy-grace} and {@code jobguard.jobs.<name>.busy-grace}: per job beats annotation beats global. */
class PropertiesJobOptionsCustomizerTest {

    /** The customizer over {@code jobguard.*} bound from these properties, as Spring Boot binds them. */
    private static PropertiesJobOptionsCustomizer customizer(String... properties) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String property : properties) {
            String[] kv = property.split("=", 2);
            values.put(kv[0], kv[1]);
        }
        return new PropertiesJobOptionsCustomizer(new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("jobguard", JobGuardProperties.class));
    }

    @Test
    void withoutPropertiesTheAnnotationOrTheDefaultGraceStays() throws NoSuchMethodException {
        PropertiesJobOptionsCustomizer customizer = customizer();
        assertThat(customize(customizer, "plain", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofSeconds(1));
        assertThat(customize(customizer, "annotated", Duration.ofMinutes(1)).busyGrace())
                .isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void theGlobalGraceAppliesWhereTheAnnotationSetsNone() throws NoSuchMethodException {
        PropertiesJobOptionsCustomizer customizer = customizer("jobguard.busy-grace=0s");
        assertThat(customize(customizer, "plain", Duration.ofMinutes(1)).busyGrace()).isZero();
        assertThat(customize(customizer, "annotated", Duration.ofMinutes(1)).busyGrace())
                .isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aPerJobGraceBeatsTheAnnotationAndTheGlobalOne() throws NoSuchMethodException {
        PropertiesJobOptionsCustomizer customizer = customizer("jobguard.busy-grace=0s",
                "jobguard.jobs.annotated.busy-grace=3s");
        assertThat(customize(customizer, "annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aPerJobLeaseReDerivesTheDefaultGraceCappedAtTheNewLease() throws NoSuchMethodException {
        PropertiesJobOptionsCustomizer customizer = customizer("jobguard.jobs.plain.lease=10m");
        // the annotation's 400 ms lease capped the default grace at 400 ms; the 10 min lease does not
        assertThat(customize(customizer, "plain", Duration.ofMillis(400)).busyGrace()).isEqualTo(Duration.ofSeconds(1));
    }

    private static JobOptions customize(PropertiesJobOptionsCustomizer customizer, String method, Duration lease) throws NoSuchMethodException {
        Method m = Jobs.class.getDeclaredMethod(method);
        ClusterSingleton annotation = m.getAnnotation(ClusterSingleton.class);
        JobOptions options = JobOptions.builder(method, lease)
                .busyGrace(DurationParser.parseOrDefault(annotation.busyGrace(), null, method)).build();
        return customizer.customize(options, m);
    }

    /** Guarded methods as the resolver sees them. */
    static class Jobs {
        @ClusterSingleton
        void plain() {
        }

        @ClusterSingleton(busyGrace = "250ms")
        void annotated() {
        }
    }
}
