package io.jobguard.spring.scheduling;

import io.jobguard.spring.internal.GuardedJobRegistry;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.core.Ordered;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import java.util.Objects;

/**
 * Wraps the scheduler of Spring's {@code @Scheduled} registrar so that every firing of a
 * {@code @ClusterSingleton} method learns its nominal fire time from the trigger that designated
 * it (never from the node's wall clock after the fact). It runs after the application's own
 * {@link SchedulingConfigurer}s, so it wraps whatever scheduler they chose; Spring's default
 * scheduler router, {@code @Scheduled(scheduler = ...)} qualifiers, {@code ThreadPoolTaskScheduler}
 * (with its {@code Clock}) and {@code SimpleAsyncTaskScheduler} (virtual threads) all keep working.
 * Fire times are computed on the clock of the scheduler that runs the task; behind Spring's router
 * that is the scheduler bean the router picks from this bean factory.
 * Registered by {@code @EnableJobGuard} and the Boot auto-configuration.
 */
public final class NominalFireTimeConfigurer implements SchedulingConfigurer, BeanFactoryAware, Ordered {

    private final GuardedJobRegistry registry;
    private BeanFactory beanFactory;

    /**
     * Creates the configurer.
     *
     * @param registry the guarded methods of this application context
     */
    public NominalFireTimeConfigurer(GuardedJobRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Receives the bean factory in which Spring's scheduler router looks up its target schedulers.
     *
     * @param beanFactory the bean factory of this application context
     */
    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        TaskScheduler scheduler = registrar.getScheduler();
        if (scheduler != null && !(scheduler instanceof NominalTimeTaskScheduler)) {
            registrar.setTaskScheduler(new NominalTimeTaskScheduler(scheduler, registry,
                    new TargetSchedulerClock(beanFactory)));
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
