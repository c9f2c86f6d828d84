package io.jobguard.spring.firing;

import io.jobguard.ClusterSingleton;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
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
 * durations, bad options. The job's one {@link JobOptions}, with its recovery of lost fire times, comes
 * from core's one resolution ({@link JobOptionsResolver}: per-job settings, then the annotation, then the
 * node's defaults, {@link OptionSources#nodeDefaults}), then passes the application's
 * {@code JobOptionsCustomizer}s, which see and may change the recovery; the result is checked after the
 * last customizer (a removed recovery, or one on another grid than the method's, fails startup naming the
 * method and the job). Every firing of the job, scheduled or a direct call, is guarded with that one
 * {@code JobOptions}.
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
     * @param customizers applied to the resolved options, recovery included
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
            JobOptions options = customizers.apply(resolved, method);
            checkRecoveryKept(resolved, options, grid);
            return new GuardedJob(beanClass, method, options, schedule, config.clock());
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new IllegalStateException(message != null && message.startsWith(where) ? message
                    : where + ": " + message, e);
        }
    }

    /**
     * Keeps a customized job recovering on its method's own grid of fire times: refuses options whose recovery a
     * customizer removed (a job that recovers keeps recovering; the least is {@code SKIP} with
     * {@code AT_MOST_ONCE}, the accounting rule every job with a grid gets by default), or set on another grid than
     * the method's {@code @Scheduled}, which alone decides when the job fires ({@code options.recovery().toBuilder()}
     * keeps the grid).
     *
     * @throws IllegalArgumentException naming the job and the recovery
     */
    private static void checkRecoveryKept(JobOptions resolved, JobOptions customized, FireTimeSchedule grid) {
        if (customized == null) {
            throw new IllegalArgumentException("a JobOptionsCustomizer returned null for job '" + resolved.name()
                    + "'; return the options it was given to keep them");
        }
        RecoveryOptions before = resolved.recovery();
        RecoveryOptions after = customized.recovery();
        if (before != null && after == null) {
            throw new IllegalArgumentException("a JobOptionsCustomizer removed the recovery of lost fire times of job '"
                    + customized.name() + "' (misfirePolicy " + before.misfirePolicy() + ", delivery " + before.delivery()
                    + "); a customizer may change the recovery but not remove it: the least a job recovers is "
                    + "misfirePolicy SKIP with delivery AT_MOST_ONCE");
        }
        if (after != null && after.schedule() != grid) {
            throw new IllegalArgumentException("a JobOptionsCustomizer changed the recovery's schedule of job '"
                    + customized.name() + "'; the grid of fire times is the method's @Scheduled: change the recovery "
                    + "through options.recovery().toBuilder(), which keeps it");
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
