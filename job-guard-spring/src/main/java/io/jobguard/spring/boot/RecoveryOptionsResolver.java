package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.Delivery;
import io.jobguard.DurationParser;
import io.jobguard.FireTimeSchedule;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.ScheduleSpec;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * Each guarded {@code @Scheduled} job's {@link RecoveryOptions}: per-job {@code jobguard.jobs.<name>.*} over
 * {@code @ClusterSingleton} attributes over {@code jobguard.*}; a job recovers lost fire times only when a misfire
 * policy or a delivery is set somewhere. A bad value is an {@link IllegalStateException} naming the job and the
 * setting. Cron and fixed-rate jobs get their grid of fire times; fixed-delay jobs have none.
 */
final class RecoveryOptionsResolver implements Function<GuardedJob, RecoveryOptions> {

    private final JobGuardProperties properties;
    private final Environment environment;

    RecoveryOptionsResolver(JobGuardProperties properties, Environment environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /**
     * The job's recovery options.
     *
     * @param job the guarded method
     * @return the options, or null when neither a misfire policy nor a delivery is set for the job
     * @throws IllegalStateException naming the job and the setting when a value is invalid
     */
    @Override
    public RecoveryOptions apply(GuardedJob job) {
        String name = job.options().name();
        String where = "job '" + name + "' (" + GuardedJob.describe(job.beanClass(), job.method()) + ")";
        ClusterSingleton annotation = AnnotatedElementUtils.findMergedAnnotation(job.method(), ClusterSingleton.class);
        JobOverrideProperties own = properties.jobs().get(name);
        MisfirePolicy policy = first(own == null ? null : own.misfirePolicy(),
                annotation == null ? null : parse(MisfirePolicy.class, placeholders(annotation.misfirePolicy()),
                        "@ClusterSingleton(misfirePolicy) of " + where), properties.misfirePolicy());
        Delivery delivery = first(own == null ? null : own.delivery(),
                annotation == null ? null : parse(Delivery.class, placeholders(annotation.delivery()),
                        "@ClusterSingleton(delivery) of " + where), properties.delivery());
        if (policy == null && delivery == null) {
            return null;
        }
        Duration window = first(own == null ? null : own.catchUpWindow(),
                annotation == null || placeholders(annotation.catchUpWindow()).isBlank() ? null
                        : DurationParser.parse(placeholders(annotation.catchUpWindow()), "@ClusterSingleton(catchUpWindow) of " + where),
                properties.catchUpWindow());
        Integer max = first(own == null ? null : own.catchUpMax(),
                annotation == null || annotation.catchUpMax() == 0 ? null : annotation.catchUpMax(),
                properties.catchUpMax());
        ScheduleSpec spec = job.schedule();
        FireTimeSchedule schedule = spec.kind() == ScheduleSpec.Kind.CRON || spec.kind() == ScheduleSpec.Kind.FIXED_RATE
                ? spec::nextAfter : null;
        try {
            return RecoveryOptions.builder().misfirePolicy(policy).catchUpWindow(window)
                    .catchUpMax(max == null ? RecoveryOptions.DEFAULT_CATCH_UP_MAX : max).delivery(delivery)
                    .schedule(schedule).build();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("job-guard: " + where + ": " + e.getMessage() + " (set by jobguard.jobs."
                    + name + ".*, @ClusterSingleton or jobguard.*)", e);
        }
    }

    /** An annotation attribute with its {@code ${...}} placeholders resolved, as for the other attributes. */
    private String placeholders(String value) {
        return value == null || value.isBlank() ? value : environment.resolveRequiredPlaceholders(value);
    }

    @SafeVarargs
    private static <T> T first(T... values) {
        for (T value : values) {
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String value, String culprit) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("job-guard: " + culprit + " is \"" + value + "\", not one of "
                    + java.util.Arrays.toString(type.getEnumConstants()), e);
        }
    }
}
