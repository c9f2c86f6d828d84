package io.jobguard.quartz.boot;

import io.jobguard.JobGuard;
import io.jobguard.quartz.ClusterSingletonListener;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * Installs a {@link ClusterSingletonListener} on each Quartz {@link Scheduler} bean after all
 * singletons exist and before Spring starts the schedulers (Quartz's {@code SchedulerFactoryBean}
 * starts them as a lifecycle bean, later), so no firing escapes the guard. Invalid guard options
 * on a scheduled job fail the startup, naming the job.
 */
public final class QuartzGuardInstaller implements SmartInitializingSingleton {

    private final ObjectProvider<JobGuard> jobGuard;
    private final ObjectProvider<Scheduler> schedulers;
    private final Map<String, ClusterSingletonListener> installed = new ConcurrentHashMap<>();
    private final List<BiConsumer<Scheduler, ClusterSingletonListener>> onInstall = new CopyOnWriteArrayList<>();

    /**
     * Creates the installer.
     *
     * @param jobGuard   the node's engine
     * @param schedulers the schedulers to guard
     */
    public QuartzGuardInstaller(ObjectProvider<JobGuard> jobGuard, ObjectProvider<Scheduler> schedulers) {
        this.jobGuard = jobGuard;
        this.schedulers = schedulers;
    }

    @Override
    public void afterSingletonsInstantiated() {
        JobGuard guard = jobGuard.getIfAvailable();
        if (guard == null) {
            return;
        }
        for (Scheduler scheduler : schedulers.orderedStream().toList()) {
            try {
                if (scheduler.getListenerManager().getTriggerListener(ClusterSingletonListener.DEFAULT_NAME) == null) {
                    ClusterSingletonListener listener = ClusterSingletonListener.install(scheduler, guard);
                    installed.put(scheduler.getSchedulerName(), listener);
                    onInstall.forEach(action -> action.accept(scheduler, listener));
                }
            } catch (SchedulerException e) {
                throw new IllegalStateException("job-guard: cannot install on Quartz scheduler: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Runs {@code action} for each listener this installer puts on a scheduler, right after it is installed and
     * before Spring starts the scheduler; to take effect for every scheduler, call it before all singletons exist
     * (from a bean's constructor). An exception the action throws fails the startup.
     *
     * @param action receives the scheduler and its listener
     */
    public void whenInstalled(BiConsumer<Scheduler, ClusterSingletonListener> action) {
        onInstall.add(action);
    }

    /**
     * The listeners this installer put on the schedulers, by scheduler name.
     *
     * @return the installed listeners
     */
    public Map<String, ClusterSingletonListener> listeners() {
        return Map.copyOf(installed);
    }

    /**
     * The guarded Quartz jobs of every scheduler, by scheduler name then job key ({@code group.name}).
     *
     * @return the job keys, for reports such as the actuator endpoint
     */
    public Map<String, List<String>> guardedJobs() {
        Map<String, List<String>> result = new ConcurrentHashMap<>();
        installed.forEach((name, listener) -> result.put(name, List.copyOf(listener.guardedJobs().keySet())));
        return Map.copyOf(result);
    }
}
