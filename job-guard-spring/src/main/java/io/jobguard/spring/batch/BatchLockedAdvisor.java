package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchLocks;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.BeansException;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Matches {@link BatchLocked} methods (on the class or an interface it implements) and wraps them
 * in {@link BatchLockedInterceptor}. Matching parses every annotated method of a class the first
 * time the class is seen, so a bad annotation fails when the bean is proxied; once all singletons
 * exist, a context with annotated methods must also yield its {@link BatchLocks}, or startup fails
 * naming a method.
 */
final class BatchLockedAdvisor extends AbstractPointcutAdvisor implements SmartInitializingSingleton {

    private static final long serialVersionUID = 1L;

    private final transient Map<Method, Optional<BatchLockedMethod>> methods = new ConcurrentHashMap<>();
    private final transient Set<Class<?>> scanned = ConcurrentHashMap.newKeySet();
    private final transient BatchLockedMethods found;
    private final transient ObjectProvider<BatchLocks> locks;
    /** Resolved when the first annotated method is found: never while post-processors are still being created. */
    private final transient Supplier<BatchLockedDefaults> defaults;
    private final transient Pointcut pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            if (scanned.add(targetClass)) {
                ReflectionUtils.doWithMethods(targetClass, m -> describe(m, targetClass),
                        m -> AnnotatedElementUtils.hasAnnotation(m, BatchLocked.class));
            }
            return describe(method, targetClass).isPresent();
        }
    };
    private final transient BatchLockedInterceptor interceptor;

    BatchLockedAdvisor(ObjectProvider<BatchLocks> locks, BatchLockedMethods found,
                       Supplier<BatchLockedDefaults> defaults, ObjectProvider<ObservationRegistry> observations) {
        this.locks = locks;
        this.found = found;
        this.defaults = SingletonSupplier.of(defaults);
        this.interceptor = new BatchLockedInterceptor(locks, this, observations);
    }

    Optional<BatchLockedMethod> describe(Method method, Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        Optional<BatchLockedMethod> known = methods.get(specific);
        if (known != null) {
            return known;
        }
        BatchLocked annotation = AnnotatedElementUtils.findMergedAnnotation(specific, BatchLocked.class);
        if (annotation == null && specific != method) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(method, BatchLocked.class);
        }
        Optional<BatchLockedMethod> described = Optional.empty();
        if (annotation != null) {
            // Not inside a computeIfAbsent of the cache: the first lookup of the defaults may create beans, whose
            // proxying asks this advisor about their own methods.
            BatchLockedDefaults unset = defaults.get();
            described = Optional.of(BatchLockedMethod.parse(specific, annotation, unset.lease(), unset.waitFor()));
        }
        Optional<BatchLockedMethod> earlier = methods.putIfAbsent(specific, described);
        if (earlier != null) {
            return earlier;
        }
        described.ifPresent(parsed -> found.add(targetClass.getName() + "." + specific.getName() + "()",
                parsed.namespace()));
        return described;
    }

    /** Fails the startup, naming a method, when annotated methods exist but their BatchLocks cannot be had. */
    @Override
    public void afterSingletonsInstantiated() {
        if (found.isEmpty()) {
            return;
        }
        String culprit = "@BatchLocked method " + found.methods().get(0)
                + (found.methods().size() > 1 ? " (and " + (found.methods().size() - 1) + " more)" : "");
        BatchLocks available;
        try {
            available = locks.getIfAvailable();
        } catch (BeansException e) {
            throw new IllegalStateException(culprit + " cannot get its BatchLocks: "
                    + NestedExceptionUtils.getMostSpecificCause(e).getMessage(), e);
        }
        if (available == null) {
            throw new IllegalStateException(culprit + " needs batch locks, but the context has no BatchLocks bean: "
                    + "it would run unlocked; define one (e.g. RedisBatchLocks.create(connectionFactory))");
        }
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
