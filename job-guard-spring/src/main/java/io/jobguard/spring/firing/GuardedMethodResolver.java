package io.jobguard.spring.firing;

import io.jobguard.ClusterSingleton;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.internal.options.JobOptionsResolver;
import io.jobguard.internal.options.OptionSources;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringValueResolver;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Turns one {@code @ClusterSingleton} method into a {@link GuardedJob}, or fails with a message
 * that names the method: not {@code @Scheduled}, several schedules, a reactive type whose completion
 * it cannot follow, a Kotlin suspend function without {@code kotlinx-coroutines-reactor}, bad
 * durations, bad options. The options, with their recovery of lost fire times, come from core's one
 * resolution ({@link JobOptionsResolver}: per-job settings, then the annotation, then the node's
 * defaults, {@link OptionSources#nodeDefaults}), then pass the application's {@code JobOptionsCustomizer}s.
 */
final class GuardedMethodResolver {

    private static final boolean COROUTINES_REACTOR = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
            GuardedMethodResolver.class.getClassLoader());

    private final StringValueResolver values;
    private final Supplier<JobGuard> engine;
    private final Supplier<OptionSources> sources;
    private final BiFunction<JobOptions, Method, JobOptions> customizers;

    /**
     * @param values      resolves {@code ${...}} placeholders in the annotation's strings, or null
     * @param engine      the engine, whose default lease is the last default
     * @param sources     the per-job settings and the defaults besides the annotation (Spring Boot's properties)
     * @param customizers applied to the resolved options, without their recovery
     */
    GuardedMethodResolver(StringValueResolver values, Supplier<JobGuard> engine, Supplier<OptionSources> sources,
                          BiFunction<JobOptions, Method, JobOptions> customizers) {
        this.values = values;
        this.engine = engine;
        this.sources = sources;
        this.customizers = customizers;
    }

    GuardedJob resolve(Class<?> beanClass, Method method, ClusterSingleton annotation) {
        String where = "@ClusterSingleton on " + GuardedJob.describe(beanClass, method);
        Set<Scheduled> schedules = AnnotatedElementUtils.getMergedRepeatableAnnotations(method, Scheduled.class);
        if (schedules.isEmpty()) {
            throw new IllegalStateException(where + ": the method is not @Scheduled; job-guard guards scheduled "
                    + "firings only (use JobGuard.run(...) to guard other code)");
        }
        if (schedules.size() > 1) {
            throw new IllegalStateException(where + ": the method has " + schedules.size()
                    + " @Scheduled annotations; a guarded method takes exactly one schedule");
        }
        boolean suspending = KotlinDetector.isSuspendingFunction(method);
        if (suspending && !COROUTINES_REACTOR) {
            throw new IllegalStateException(where + ": a Kotlin suspend @Scheduled method needs "
                    + "org.jetbrains.kotlinx:kotlinx-coroutines-reactor on the classpath (Spring schedules it through "
                    + "Reactor, and job-guard holds the lease until the coroutine completes)");
        }
        if (!suspending && isReactive(method) && !AsyncRuns.reactor(method.getReturnType())
                && !AsyncRuns.completionStage(method.getReturnType())) {
            throw new IllegalStateException(where + ": reactive @Scheduled methods returning "
                    + method.getReturnType().getSimpleName() + " are not supported (the lease would end before it "
                    + "completes); return a Mono, a Flux or a CompletableFuture, or make the method blocking");
        }
        GuardableMethods.check(beanClass, method, where);
        ScheduleSpec schedule = ScheduleSpec.of(schedules.iterator().next(), values, where);
        GuardableMethods.checkSharedGrid(schedule, where);
        JobGuardConfig config = engine.get().config();
        OptionSources settings = sources.get();
        FireTimeSchedule grid = schedule.kind() == ScheduleSpec.Kind.CRON || schedule.kind() == ScheduleSpec.Kind.FIXED_RATE
                ? schedule::nextAfter : null;
        Duration cooldown = schedule.kind() == ScheduleSpec.Kind.FIXED_DELAY ? schedule.period() : Duration.ZERO;
        try {
            JobOptions resolved = JobOptionsResolver.resolve(new JobOptionsResolver.Sources(
                    beanClass.getSimpleName() + "." + method.getName(), settings.own(), annotation, this::resolve,
                    OptionSources.nodeDefaults(settings.defaults(), config), cooldown, grid));
            JobOptions options = customizers.apply(resolved.toBuilder().recovery(null).build(), method);
            GuardedJob job = new GuardedJob(beanClass, method, options, schedule, config.clock());
            job.recovery(resolved.recovery());
            return job;
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new IllegalStateException(message != null && message.startsWith(where) ? message
                    : where + ": " + message, e);
        }
    }

    private String resolve(String value) {
        if (value == null || value.isEmpty() || values == null) {
            return value == null ? "" : value.trim();
        }
        String resolved = values.resolveStringValue(value);
        return resolved == null ? "" : resolved.trim();
    }

    private static boolean isReactive(Method method) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            return true;
        }
        Class<?> returnType = method.getReturnType();
        if (returnType == void.class) {
            return false;
        }
        ReactiveAdapterRegistry adapters = ReactiveAdapterRegistry.getSharedInstance();
        return adapters.hasAdapters() && adapters.getAdapter(returnType) != null;
    }
}
