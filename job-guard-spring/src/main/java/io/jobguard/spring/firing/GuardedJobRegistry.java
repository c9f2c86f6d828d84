package io.jobguard.spring.firing;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Every guarded method of one application context, by job name and by method. Registering two
 * methods under one job name fails, naming both. Thread-safe.
 *
 * <p>Internal to job-guard's Spring integration; not an API.
 */
public final class GuardedJobRegistry {

    private final Map<String, GuardedJob> byName = new ConcurrentSkipListMap<>();
    private final Map<String, List<GuardedJob>> byRunnableKey = new ConcurrentHashMap<>();
    private final Map<MethodKey, GuardedJob> byMethod = new ConcurrentHashMap<>();

    /**
     * Adds a guarded method.
     *
     * @param job the resolved job
     * @throws IllegalStateException if another method already uses the job's name
     */
    public synchronized void register(GuardedJob job) {
        GuardedJob existing = byName.putIfAbsent(job.options().name(), job);
        if (existing != null) {
            throw new IllegalStateException("@ClusterSingleton job name '" + job.options().name() + "' is used by both "
                    + GuardedJob.describe(existing.beanClass(), existing.method()) + " and "
                    + GuardedJob.describe(job.beanClass(), job.method())
                    + ": every guarded method needs its own name (set @ClusterSingleton(name = ...))");
        }
        byMethod.put(new MethodKey(job.beanClass(), job.method()), job);
        byRunnableKey.computeIfAbsent(job.runnableKey(), k -> new ArrayList<>()).add(job);
    }

    /**
     * Finds the job of a method invoked on a bean.
     *
     * @param beanClass the bean's user class
     * @param method    the most specific method
     * @return the job, or empty if the method is not guarded
     */
    public Optional<GuardedJob> forMethod(Class<?> beanClass, Method method) {
        return Optional.ofNullable(byMethod.get(new MethodKey(beanClass, method)));
    }

    /**
     * Finds the job of a call: the method as invoked (possibly an interface or bridge method) on
     * a target that may be a proxy.
     *
     * @param target  the object the method is invoked on, or null when unknown
     * @param invoked the method as invoked
     * @return the job, or empty if the method is not guarded
     */
    public Optional<GuardedJob> forCall(Object target, Method invoked) {
        Class<?> type = target == null ? invoked.getDeclaringClass()
                : ClassUtils.getUserClass(AopUtils.getTargetClass(target));
        return forMethod(type, BridgeMethodResolver.findBridgedMethod(AopUtils.getMostSpecificMethod(invoked, type)));
    }

    /**
     * Finds the jobs a scheduled runnable belongs to, by its {@code toString()}.
     *
     * @param runnableKey what the runnable prints
     * @return the jobs (several only when one class is registered as several beans)
     */
    public List<GuardedJob> forRunnableKey(String runnableKey) {
        List<GuardedJob> jobs = byRunnableKey.get(runnableKey);
        return jobs == null ? List.of() : List.copyOf(jobs);
    }

    /**
     * Finds a job by name.
     *
     * @param name the job name
     * @return the job, or empty
     */
    public Optional<GuardedJob> forName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** @return every guarded job, sorted by name */
    public Collection<GuardedJob> all() {
        return List.copyOf(byName.values());
    }

    private record MethodKey(Class<?> beanClass, Method method) {
    }
}
