package io.jobguard.spring.aop;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobPermit;
import io.jobguard.RunOutcome;
import io.jobguard.spring.internal.FireTimeHolder;
import io.jobguard.spring.internal.GuardedJob;
import io.jobguard.spring.internal.GuardedJobRegistry;
import io.jobguard.spring.observation.RunObservations;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    private final RunObservations observations;
    private volatile JobGuard guard;
    private final Set<String> directCallsLogged = ConcurrentHashMap.newKeySet();

    ClusterSingletonInterceptor(GuardedJobRegistry registry, Supplier<JobGuard> engine,
                                RunObservations observations) {
        this.registry = registry;
        this.engine = engine;
        this.observations = observations;
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
        Class<?> returnType = invocation.getMethod().getReturnType();
        if (AsyncRuns.reactor(returnType)) {
            // Spring calls a reactive @Scheduled method once and subscribes at every firing: guard subscriptions
            Object assembled = invocation.proceed();
            return assembled == null ? null : AsyncRuns.guardSubscriptions(assembled, () -> {
                Instant t = fireTime(job);
                return new AsyncRuns.Decision(t, guard().admit(job.options(), t));
            }, job::recordOutcome);
        }
        Instant fireTime = fireTime(job);
        RunObservations.Running observation = observations.start(guard(), job.options(), fireTime);
        Admission admission;
        try {
            admission = job.recovery() == null ? guard().admit(job.options(), fireTime)
                    : RecoveryBodies.admit(missed(), job, fireTime, invocation);
        } catch (RuntimeException | Error e) {
            observation.stop(null, e);
            throw e;
        }
        observation.decided(admission);
        if (!admission.granted()) {
            job.recordOutcome(fireTime, admission.refusal());
            observation.stop(admission.refusal(), null);
            return skipped(invocation.getMethod().getReturnType());
        }
        JobPermit permit = admission.permit();
        if (AsyncRuns.completionStage(returnType)) {
            Object returned;
            try {
                returned = invocation.proceed();
            } catch (Throwable e) {
                job.recordOutcome(fireTime, permit.finish(e));
                observation.stop(RunOutcome.FAILED, e);
                throw e;
            }
            observation.detach();
            return AsyncRuns.holdUntilComplete(returned, permit, fireTime, (t, outcome) -> {
                job.recordOutcome(t, outcome);
                observation.stop(outcome, null);
            });
        }
        Throwable failure = null;
        try {
            return invocation.proceed();
        } catch (Throwable e) {
            failure = e;
            throw e;
        } finally {
            RunOutcome outcome = permit.finish(failure);
            job.recordOutcome(fireTime, outcome);
            observation.stop(outcome, failure);
        }
    }

    /** The firing's fire time: bound by the scheduler, or for a direct call the schedule's latest. */
    private Instant fireTime(GuardedJob job) {
        Instant fireTime = FireTimeHolder.take(job.runnableKey());
        if (fireTime == null) {
            fireTime = job.schedule().latestAtOrBefore(job.clock().instant());
            if (directCallsLogged.add(job.options().name())) {
                log.info("job-guard: job '{}' called directly (not by its schedule), guarded as the fire time of its "
                        + "schedule at or before now, T={} (logged once per job)", job.options().name(), fireTime);
            }
        }
        return fireTime;
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
