package io.jobguard.spring.firing;

import org.springframework.core.Ordered;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import java.util.Objects;

/**
 * Wraps the scheduler of Spring's {@code @Scheduled} registrar so that every firing of a
 * {@code @ClusterSingleton} method carries its nominal fire time from the trigger that designated
 * it (never from the node's wall clock after the fact) to the guard. It runs after the
 * application's own {@link SchedulingConfigurer}s, so it wraps whatever scheduler they chose;
 * Spring's default scheduler router, {@code @Scheduled(scheduler = ...)} qualifiers,
 * {@code ThreadPoolTaskScheduler} (with its {@code Clock}) and {@code SimpleAsyncTaskScheduler}
 * (virtual threads) all keep working. Registered by {@code @EnableJobGuard} and the Boot
 * auto-configuration.
 */
final class NominalFireTimeConfigurer implements SchedulingConfigurer, Ordered {

    private final GuardedJobRegistry registry;
    private final FireTimeHandOff fireTimeHandOff;

    /**
     * Creates the configurer.
     *
     * @param registry        the guarded methods of this application context
     * @param fireTimeHandOff carries each firing's nominal fire time to the {@code @ClusterSingleton} advice
     */
    NominalFireTimeConfigurer(GuardedJobRegistry registry, FireTimeHandOff fireTimeHandOff) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.fireTimeHandOff = Objects.requireNonNull(fireTimeHandOff, "fireTimeHandOff");
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        TaskScheduler scheduler = registrar.getScheduler();
        if (scheduler != null && !(scheduler instanceof NominalTimeTaskScheduler)) {
            registrar.setTaskScheduler(new NominalTimeTaskScheduler(scheduler, registry, fireTimeHandOff));
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
