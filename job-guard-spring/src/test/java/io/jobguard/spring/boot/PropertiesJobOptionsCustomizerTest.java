package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.DurationParser;
import io.jobguard.JobOptions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code jobguard.busy-grace} and {@code jobguard.jobs.<name>.busy-grace}: per job beats annotation beats global. */
class PropertiesJobOptionsCustomizerTest {

    private final JobGuardProperties properties = new JobGuardProperties();
    private final PropertiesJobOptionsCustomizer customizer = new PropertiesJobOptionsCustomizer(properties);

    @Test
    void withoutPropertiesTheAnnotationOrTheDefaultGraceStays() throws NoSuchMethodException {
        assertThat(customize("plain", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofSeconds(1));
        assertThat(customize("annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void theGlobalGraceAppliesWhereTheAnnotationSetsNone() throws NoSuchMethodException {
        properties.setBusyGrace(Duration.ZERO);
        assertThat(customize("plain", Duration.ofMinutes(1)).busyGrace()).isZero();
        assertThat(customize("annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aPerJobGraceBeatsTheAnnotationAndTheGlobalOne() throws NoSuchMethodException {
        properties.setBusyGrace(Duration.ZERO);
        JobOverrideProperties job = new JobOverrideProperties();
        job.setBusyGrace(Duration.ofSeconds(3));
        properties.getJobs().put("annotated", job);
        assertThat(customize("annotated", Duration.ofMinutes(1)).busyGrace()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aPerJobLeaseReDerivesTheDefaultGraceCappedAtTheNewLease() throws NoSuchMethodException {
        JobOverrideProperties job = new JobOverrideProperties();
        job.setLease(Duration.ofMinutes(10));
        properties.getJobs().put("plain", job);
        // the annotation's 400 ms lease capped the default grace at 400 ms; the 10 min lease does not
        assertThat(customize("plain", Duration.ofMillis(400)).busyGrace()).isEqualTo(Duration.ofSeconds(1));
    }

    private JobOptions customize(String method, Duration lease) throws NoSuchMethodException {
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
