package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.internal.options.JobOptionsResolver;
import io.jobguard.internal.options.OptionSource;
import io.jobguard.internal.options.OptionSources;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code jobguard.*} properties as option sources: per job beats annotation beats global. */
class JobGuardPropertiesSourcesTest {

    /** The sources over {@code jobguard.*} bound from these properties, as Spring Boot binds them. */
    private static OptionSources sources(String... properties) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String property : properties) {
            String[] kv = property.split("=", 2);
            values.put(kv[0], kv[1]);
        }
        return JobGuardPropertiesSources.of(new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("jobguard", JobGuardProperties.class));
    }

    @Test
    void withoutPropertiesTheAnnotationOrTheDefaultGraceStays() throws NoSuchMethodException {
        OptionSources sources = sources();
        assertThat(resolve(sources, "plain", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofSeconds(1));
        assertThat(resolve(sources, "annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void theGlobalGraceAppliesWhereTheAnnotationSetsNone() throws NoSuchMethodException {
        OptionSources sources = sources("jobguard.busy-grace=0s");
        assertThat(resolve(sources, "plain", Duration.ofMinutes(1)).busyGrace()).isZero();
        assertThat(resolve(sources, "annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aPerJobGraceBeatsTheAnnotationAndTheGlobalOne() throws NoSuchMethodException {
        OptionSources sources = sources("jobguard.busy-grace=0s", "jobguard.jobs.annotated.busy-grace=3s");
        assertThat(resolve(sources, "annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aPerJobLeaseReDerivesTheDefaultGraceCappedAtTheNewLease() throws NoSuchMethodException {
        OptionSources sources = sources("jobguard.jobs.plain.lease=10m");
        // the default 400 ms lease would cap the default grace at 400 ms; the 10 min lease does not
        assertThat(resolve(sources, "plain", Duration.ofMillis(400)).busyGrace()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void theGlobalKeepAliveOffWinsOverTheAnnotationAndAPerJobOneOverBoth() throws NoSuchMethodException {
        assertThat(resolve(sources("jobguard.keep-alive=false"), "plain", Duration.ofMinutes(1)).keepAlive()).isFalse();
        assertThat(resolve(sources("jobguard.keep-alive=false", "jobguard.jobs.plain.keep-alive=true"), "plain",
                Duration.ofMinutes(1)).keepAlive()).isTrue();
    }

    /** The options of the method named {@code method}, with {@code defaultLease} as the engine's default lease. */
    private static JobOptions resolve(OptionSources sources, String method, Duration defaultLease)
            throws NoSuchMethodException {
        ClusterSingleton annotation = Jobs.class.getDeclaredMethod(method).getAnnotation(ClusterSingleton.class);
        OptionSource defaults = OptionSources.nodeDefaults(sources.defaults(),
                JobGuardConfig.builder().defaultLease(defaultLease).build());
        return JobOptionsResolver.resolve(new JobOptionsResolver.Sources(method, sources.own(), annotation, null,
                defaults, null, null));
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
