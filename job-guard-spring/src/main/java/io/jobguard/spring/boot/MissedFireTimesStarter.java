package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.Delivery;
import io.jobguard.DurationParser;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.MisfirePolicy;
import io.jobguard.MissedFireTimes;
import io.jobguard.RecoveryOptions;
import io.jobguard.spring.internal.GuardedJob;
import io.jobguard.spring.internal.GuardedJobRegistry;
import io.jobguard.spring.internal.ScheduleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Recovery of lost fire times for {@code @Scheduled} jobs: at startup, works out each guarded job's
 * {@link RecoveryOptions} (per-job {@code jobguard.jobs.<name>.*} over {@code @ClusterSingleton}
 * attributes over {@code jobguard.*}; a job recovers lost fire times only when a misfire policy or
 * a delivery is set somewhere), failing startup on a bad value with the job and the setting named;
 * once the application is ready, recovers on one background thread what each job lost while no
 * node ran ({@link MissedFireTimes#recover}), and again at least every minute and when a fire time
 * that was too young to count (the skew tolerance) is settled. Cron and fixed-rate jobs have a grid of fire times;
 * fixed-delay jobs have none, so for them only the delivery applies.
 */
final class MissedFireTimesStarter implements SmartInitializingSingleton, ApplicationListener<ApplicationReadyEvent>,
        DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(MissedFireTimesStarter.class);

    /** The longest pause between two recovery passes. */
    static final Duration SWEEP = Duration.ofMinutes(1);

    private final JobGuardProperties properties;
    private final ObjectProvider<GuardedJobRegistry> registry;
    private final ObjectProvider<JobGuard> guard;
    private final ApplicationContext context;
    private volatile Thread sweeper;

    MissedFireTimesStarter(JobGuardProperties properties, ObjectProvider<GuardedJobRegistry> registry,
                           ObjectProvider<JobGuard> guard, ApplicationContext context) {
        this.properties = properties;
        this.registry = registry;
        this.guard = guard;
        this.context = context;
    }

    @Override
    public void afterSingletonsInstantiated() {
        GuardedJobRegistry jobs = registry.getIfAvailable();
        if (jobs != null) {
            jobs.all().forEach(job -> job.recovery(resolve(job)));
        }
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (event.getApplicationContext() != context) {
            return;
        }
        GuardedJobRegistry jobs = registry.getIfAvailable();
        JobGuard engine = guard.getIfAvailable();
        if (jobs == null || engine == null) {
            return;
        }
        List<GuardedJob> recovering = new ArrayList<>(jobs.all().stream().filter(j -> j.recovery() != null).toList());
        if (recovering.isEmpty()) {
            return;
        }
        MissedFireTimes missed = engine.missedFireTimes();
        Thread thread = new Thread(() -> sweep(missed, recovering), "job-guard-recovery");
        thread.setDaemon(true);
        sweeper = thread;
        thread.start();
    }

    /**
     * Recovers every job at start, then again whenever a fire time that was too young at the last pass
     * is settled, and at least every {@link #SWEEP}: a fire time every node skipped (Redis unreachable
     * at that moment) is caught up without waiting for the job's next firing, which for a daily job is
     * outside any window shorter than a day.
     */
    private void sweep(MissedFireTimes missed, List<GuardedJob> recovering) {
        Clock clock = guard.getObject().config().clock();
        Duration retry = Duration.ofSeconds(1);
        while (!Thread.currentThread().isInterrupted()) {
            Instant wake = clock.instant().plus(SWEEP);
            boolean answered = true;
            for (GuardedJob job : recovering) {
                try {
                    answered &= missed.recover(job.options(), job.recovery(), body(job));
                    Optional<Instant> pending = missed.pendingUntil(job.options(), job.recovery());
                    if (pending.isPresent() && pending.get().isBefore(wake)) {
                        wake = pending.get();
                    }
                } catch (RuntimeException e) {
                    log.warn("job-guard: job '{}' recovery failed: {}", job.options().name(), e.toString());
                }
            }
            if (answered) {
                retry = Duration.ofSeconds(1);
            } else {
                // the store is unreachable: look again soon (1, 2, 4 ... s, at most a minute), so that a fire
                // time skipped during the outage is caught up while the window still holds it
                Instant soon = clock.instant().plus(retry);
                wake = soon.isBefore(wake) ? soon : wake;
                retry = retry.multipliedBy(2).compareTo(SWEEP) > 0 ? SWEEP : retry.multipliedBy(2);
            }
            long millis = Math.max(200, Duration.between(clock.instant(), wake).toMillis());
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void destroy() {
        Thread thread = sweeper;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** The job's method on its target bean (not the proxy: {@link MissedFireTimes} guards the run itself). */
    private Runnable body(GuardedJob job) {
        Map<String, ?> beans = context.getBeansOfType(job.beanClass());
        if (beans.isEmpty()) {
            throw new IllegalStateException("no bean of " + job.beanClass().getName());
        }
        Object bean = beans.values().iterator().next();
        Object singleton = AopProxyUtils.getSingletonTarget(bean);
        Object target = singleton != null ? singleton : bean;
        Method method = job.method();
        ReflectionUtils.makeAccessible(method);
        return () -> {
            try {
                method.invoke(target);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new UndeclaredThrowableException(cause);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** The job's recovery options, or null when neither a misfire policy nor a delivery is set for it. */
    RecoveryOptions resolve(GuardedJob job) {
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
        return value == null || value.isBlank() ? value : context.getEnvironment().resolveRequiredPlaceholders(value);
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
