package io.jobguard.spring.firing;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Recovers the fire times each guarded {@code @Scheduled} job lost while no node ran, and runs the due attempts of
 * fire times whose run threw, on one background thread, once the application is ready. It runs
 * {@link JobGuard#recoverMissedFireTimes} for each job whose options carry {@link RecoveryOptions} and
 * {@link JobGuard#runDueRetry} for each job that retries, again at least every minute, when a fire time that was too
 * young to count (the skew tolerance) is settled, when a pending attempt is due, and as soon as a run of this node
 * leaves one pending. A job's recovery is the one in its options
 * ({@link GuardedJob#options()}), resolved and customized, and checked, when its bean was created; the firings
 * of the job use the same. Cron and fixed-rate jobs have a grid of fire times; fixed-delay jobs have none, so
 * for them only the delivery applies.
 */
public final class MissedFireTimeRecoveryStarter implements ApplicationListener<ApplicationReadyEvent>, DisposableBean,
        JobGuardListener {

    private static final Logger log = LoggerFactory.getLogger(MissedFireTimeRecoveryStarter.class);

    /** The longest pause between two recovery passes. */
    static final Duration SWEEP = Duration.ofMinutes(1);

    private final ObjectProvider<GuardedJobRegistry> registry;
    private final ObjectProvider<JobGuard> guard;
    private final ApplicationContext context;
    private volatile Thread sweeper;
    /** Released when a run of this node leaves an attempt pending: the pass looks again at once. */
    private final Semaphore retryLeftPending = new Semaphore(0);

    /**
     * Creates the starter.
     *
     * @param registry the guarded {@code @Scheduled} methods
     * @param guard    the engine
     * @param context  the application context whose readiness starts the recovery
     */
    public MissedFireTimeRecoveryStarter(ObjectProvider<GuardedJobRegistry> registry, ObjectProvider<JobGuard> guard,
                                         ApplicationContext context) {
        this.registry = registry;
        this.guard = guard;
        this.context = context;
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
        List<GuardedJob> recovering = new ArrayList<>(jobs.all().stream().filter(j -> passesOver(j.options())).toList());
        if (recovering.isEmpty()) {
            return;
        }
        engine.addListener(this);
        Thread thread = new Thread(() -> sweep(engine, recovering), "job-guard-recovery");
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
    private void sweep(JobGuard engine, List<GuardedJob> recovering) {
        Clock clock = guard.getObject().config().clock();
        Duration retry = Duration.ofSeconds(1);
        while (!Thread.currentThread().isInterrupted()) {
            Instant wake = clock.instant().plus(SWEEP);
            boolean answered = true;
            for (GuardedJob job : recovering) {
                try {
                    JobOptions options = job.options();
                    if (options.recovery() != null) {
                        answered &= engine.recoverMissedFireTimes(options, options.recovery(), body(job));
                        wake = earlier(wake, engine.recoveryPendingUntil(options, options.recovery()));
                    }
                    if (options.retry().retries()) {
                        answered &= engine.runDueRetry(options, body(job));
                        wake = earlier(wake, engine.retryDueAt(options));
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
                if (retryLeftPending.tryAcquire(millis, TimeUnit.MILLISECONDS)) {
                    retryLeftPending.drainPermits();
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Whether the pass looks at a job: it recovers lost fire times, or retries failed runs.
     *
     * @param job the job's options
     * @return {@code true} when the pass has work for it
     */
    static boolean passesOver(JobOptions job) {
        return job.recovery() != null || job.retry().retries();
    }

    private static Instant earlier(Instant wake, Optional<Instant> pending) {
        return pending.isPresent() && pending.get().isBefore(wake) ? pending.get() : wake;
    }

    /** A run of this node left an attempt pending: look again now, to learn when it is due. */
    @Override
    public void onJobEvent(JobEvent event) {
        if (event.outcome() == RunOutcome.RETRY_PENDING) {
            retryLeftPending.release();
        }
    }

    @Override
    public void destroy() {
        Thread thread = sweeper;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** The job's method on its target bean (not the proxy: the engine's recovery guards the run itself). */
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
}
