package io.jobguard.spring.aop;

import io.jobguard.ClusterSingleton;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/** Applies {@link ClusterSingletonInterceptor} to methods annotated {@link ClusterSingleton}. */
final class ClusterSingletonAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient ClusterSingletonInterceptor interceptor;
    private final transient Pointcut pointcut = AnnotationMatchingPointcut.forMethodAnnotation(ClusterSingleton.class);

    ClusterSingletonAdvisor(ClusterSingletonInterceptor interceptor) {
        this.interceptor = interceptor;
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
