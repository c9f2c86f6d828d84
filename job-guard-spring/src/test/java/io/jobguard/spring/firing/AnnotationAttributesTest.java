package io.jobguard.spring.firing;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.internal.options.OptionSources;
import io.jobguard.memory.InMemoryLeaseStore;
import io.jobguard.testing.AnnotationAttributes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.annotation.Scheduled;

import java.lang.reflect.Method;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Spring path honours every element of {@code @ClusterSingleton} as core's table says: each row's annotation on
 * a {@code @Scheduled} method resolves to the row's effect, and an invalid value fails with the Quartz path's message.
 */
class AnnotationAttributesTest {

    private final JobGuard guard = JobGuard.create(InMemoryLeaseStore.create(),
            JobGuardConfig.builder().namespace("attributes").defaultLease(Duration.ofMinutes(1)).build());
    private final GuardedMethodResolver resolver = new GuardedMethodResolver(null, () -> guard,
            () -> OptionSources.NONE, (options, method) -> options);

    @AfterEach
    void close() {
        guard.close();
    }

    @Test
    void everyElementOfTheAnnotationTakesEffect() throws NoSuchMethodException {
        AnnotationAttributes.assertCoversTheAnnotation();
        Method method = Jobs.class.getMethod("run");
        for (AnnotationAttributes.Row row : AnnotationAttributes.rows()) {
            GuardedJob job = resolver.resolve(Jobs.class, method, row.annotation());
            assertThat(row.resolved().apply(job.options())).as("%s", row).isEqualTo(row.expected());
        }
    }

    @Test
    void anInvalidValueFailsWithTheMessageOfTheQuartzPathPrefixedWithTheMethod() throws NoSuchMethodException {
        Method method = Jobs.class.getMethod("run");
        ClusterSingleton bad = AnnotationAttributes.of(AnnotationAttributes.BadPolicy.class);
        assertThatThrownBy(() -> resolver.resolve(Jobs.class, method, bad))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("@ClusterSingleton on " + GuardedJob.describe(Jobs.class, method) + ": "
                        + AnnotationAttributes.BAD_POLICY_MESSAGE);
    }

    /** A scheduled method; each row passes its own annotation. */
    public static class Jobs {
        @Scheduled(cron = "0 0 3 * * *")
        public void run() {
        }
    }
}
