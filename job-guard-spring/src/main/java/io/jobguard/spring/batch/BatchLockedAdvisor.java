package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchLocks;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Matches {@link BatchLocked} methods (on the class or an interface it implements) and wraps them
 * in {@link BatchLockedInterceptor}. Matching parses the annotation, so a bad one fails when the
 * bean is proxied.
 */
final class BatchLockedAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Map<Method, Optional<BatchLockedMethod>> methods = new ConcurrentHashMap<>();
    private final transient Duration defaultLease;
    private final transient Pointcut pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return describe(method, targetClass).isPresent();
        }
    };
    private final transient BatchLockedInterceptor interceptor;

    BatchLockedAdvisor(ObjectProvider<BatchLocks> locks, Duration defaultLease) {
        this.defaultLease = defaultLease;
        this.interceptor = new BatchLockedInterceptor(locks, this);
    }

    Optional<BatchLockedMethod> describe(Method method, Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        return methods.computeIfAbsent(specific, m -> {
            BatchLocked annotation = AnnotatedElementUtils.findMergedAnnotation(m, BatchLocked.class);
            if (annotation == null && m != method) {
                annotation = AnnotatedElementUtils.findMergedAnnotation(method, BatchLocked.class);
            }
            return annotation == null ? Optional.empty()
                    : Optional.of(BatchLockedMethod.parse(m, annotation, defaultLease));
        });
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
