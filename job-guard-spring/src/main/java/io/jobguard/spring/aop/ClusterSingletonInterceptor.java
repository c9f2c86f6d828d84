package io.jobguard.spring.aop;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobPermit;
import io.jobguard.RunOutcome;
import io.jobguard.spring.internal.FireTimeHolder;
import io.jobguard.spring.internal.GuardedJob;
import io.jobguard.spring.internal.GuardedJobRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Guards one call of a {@code @ClusterSingleton} method. A call started by its schedule runs for
 * the nominal fire time the scheduler decorator bound to the thread. Any other call (the method
 * invoked directly by application code) is guarded with the latest fire time of its schedule at or
 * before now (now by the scheduler's clock): it counts as that firing, so it runs unless the
 * firing ran somewhere already, and a firing it took is not run again. Fixed-delay and one-time
 * schedules have no grid: a direct call uses now, and the cluster-wide cool-down still applies.
 * A skipped call returns {@code null} (or zero/false for a primitive return type).
 */
final class ClusterSingletonInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(ClusterSingletonInterceptor.class);

    private final GuardedJobRegistry registry;
    private final Supplier<JobGuard> engine;
    private volatile JobGuard guard;

    ClusterSingletonInterceptor(GuardedJobRegistry registry, Supplier<JobGuard> engine) {
        this.registry = registry;
        this.engine = engine;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target == null ? invocation.getMethod().getDeclaringClass()
                : ClassUtils.getUserClass(AopUtils.getTargetClass(target));
        Method method = BridgeMethodResolver.findBridgedMethod(
                AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass));
        GuardedJob job = registry.forMethod(targetClass, method).orElse(null);
        if (job == null) {
            return invocation.proceed();
        }
        Instant fireTime = FireTimeHolder.take(job.runnableKey());
        if (fireTime == null) {
            fireTime = job.schedule().latestAtOrBefore(job.clock().instant());
            log.debug("job-guard: job '{}' called directly, guarded as fire time T={}", job.options().name(), fireTime);
        }
        Admission admission = job.recovery() == null ? guard().admit(job.options(), fireTime)
                : RecoveryBodies.admit(missed(), job, fireTime, invocation);
        if (!admission.granted()) {
            job.recordOutcome(fireTime, admission.refusal());
            return skipped(invocation.getMethod().getReturnType());
        }
        JobPermit permit = admission.permit();
        Throwable failure = null;
        try {
            return invocation.proceed();
        } catch (Throwable e) {
            failure = e;
            throw e;
        } finally {
            RunOutcome outcome = permit.finish(failure);
            job.recordOutcome(fireTime, outcome);
        }
    }

    private volatile io.jobguard.MissedFireTimes missed;

    private io.jobguard.MissedFireTimes missed() {
        io.jobguard.MissedFireTimes m = missed;
        if (m == null) {
            m = new io.jobguard.MissedFireTimes(guard());
            missed = m;
        }
        return m;
    }

    private JobGuard guard() {
        JobGuard g = guard;
        if (g == null) {
            g = engine.get();
            guard = g;
        }
        return g;
    }

    private static Object skipped(Class<?> returnType) {
        if (!returnType.isPrimitive() || returnType == void.class) {
            return null;
        }
        if (returnType == boolean.class) {
            return Boolean.FALSE;
        }
        if (returnType == char.class) {
            return '\0';
        }
        if (returnType == double.class || returnType == float.class) {
            return returnType == double.class ? (Object) 0d : (Object) 0f;
        }
        return returnType == long.class ? (Object) 0L : returnType == int.class ? (Object) 0
                : returnType == short.class ? (Object) (short) 0 : (Object) (byte) 0;
    }
}
