package io.jobguard.spring.aop;

import io.jobguard.Admission;
import io.jobguard.JobPermit;
import io.jobguard.RunOutcome;
import io.jobguard.spring.internal.GuardedJob;
import io.jobguard.spring.internal.GuardedJobRegistry;
import io.jobguard.spring.observation.RunObservations;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.KotlinDetector;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Guards one call of a {@code @ClusterSingleton} method. A call made by a scheduled firing runs
 * under the permit {@link GuardedFirings#fire} already took for the firing's nominal fire time (this
 * advice takes that firing over: observes it, nested under Spring's observation of the scheduled
 * method, and finishes the permit when the method's work ends). A call made while the thread already
 * runs under a permit of the same job (a recovery run, a nested call) is part of that run and is not
 * guarded again. Any other call (the method invoked directly by application code) is guarded with
 * the latest fire time of its schedule at or before now (now by the scheduler's clock): it counts as
 * that firing, so it runs unless the firing ran somewhere already, and a firing it took is not run
 * again. Fixed-delay and one-time schedules have no grid: a direct call uses now, and the
 * cluster-wide cool-down still applies. A skipped call returns {@code null} (or zero/false for a
 * primitive return type).
 */
final class ClusterSingletonInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(ClusterSingletonInterceptor.class);

    private final GuardedJobRegistry registry;
    private final GuardedFirings firings;
    private final RunObservations observations;
    private final Set<String> directCallsLogged = ConcurrentHashMap.newKeySet();

    ClusterSingletonInterceptor(GuardedJobRegistry registry, GuardedFirings firings, RunObservations observations) {
        this.registry = registry;
        this.firings = firings;
        this.observations = observations;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        GuardedJob job = registry.forCall(invocation.getThis(), invocation.getMethod()).orElse(null);
        if (job == null) {
            return invocation.proceed();
        }
        Class<?> returnType = invocation.getMethod().getReturnType();
        if (AsyncRuns.reactor(returnType)) {
            // Spring calls a reactive @Scheduled method once and subscribes at every firing: guard subscriptions
            Object assembled = invocation.proceed();
            return assembled == null ? null : AsyncRuns.guardSubscriptions(assembled, () -> decide(job),
                    job::recordOutcome);
        }
        GuardedFirings.Admitted scheduled = firings.takeAdmitted(job);
        if (scheduled == null && GuardedFirings.insideRunOf(job)) {
            return invocation.proceed();
        }
        Instant fireTime = scheduled != null ? scheduled.fireTime() : directFireTime(job);
        RunObservations.Running observation = observations.start(firings.guard(), job.options(), fireTime);
        Admission admission;
        try {
            admission = scheduled != null ? scheduled.admission()
                    : job.recovery() == null ? firings.guard().admit(job.options(), fireTime)
                    : RecoveryBodies.admit(firings.missed(), job, fireTime, invocation);
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
        if (KotlinDetector.isSuspendingFunction(invocation.getMethod())) {
            return proceedSuspending(invocation, job, fireTime, admission.permit(), observation);
        }
        return AsyncRuns.completionStage(returnType)
                ? proceedHoldingUntilComplete(invocation, job, fireTime, admission.permit(), observation)
                : proceed(invocation, job, fireTime, admission.permit(), observation);
    }

    /** Runs a Kotlin suspend method; finishes the permit when its coroutine completes, not when it suspends. */
    private static Object proceedSuspending(MethodInvocation invocation, GuardedJob job, Instant fireTime,
                                            JobPermit permit, RunObservations.Running observation) {
        permit.unbindFromCurrentThread();
        observation.detach();
        return SuspendingRuns.proceed(invocation, failure -> {
            RunOutcome outcome = permit.finish(failure);
            job.recordOutcome(fireTime, outcome);
            observation.stop(outcome, failure);
        });
    }

    /** Runs the method and finishes the permit when it returns or throws. */
    private static Object proceed(MethodInvocation invocation, GuardedJob job, Instant fireTime, JobPermit permit,
                                  RunObservations.Running observation) throws Throwable {
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

    /** Runs a method returning a {@code CompletionStage}; finishes the permit when the stage completes. */
    private static Object proceedHoldingUntilComplete(MethodInvocation invocation, GuardedJob job, Instant fireTime,
                                                      JobPermit permit, RunObservations.Running observation)
            throws Throwable {
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

    /** One subscription of a reactive method: the scheduled firing's admission, else a direct call's. */
    private AsyncRuns.Decision decide(GuardedJob job) {
        GuardedFirings.Admitted scheduled = firings.takeAdmitted(job);
        if (scheduled != null) {
            return new AsyncRuns.Decision(scheduled.fireTime(), scheduled.admission());
        }
        Instant t = directFireTime(job);
        return new AsyncRuns.Decision(t, firings.guard().admit(job.options(), t));
    }

    /** A direct call's fire time: the latest of its schedule at or before now. */
    private Instant directFireTime(GuardedJob job) {
        Instant fireTime = job.schedule().latestAtOrBefore(job.clock().instant());
        if (directCallsLogged.add(job.options().name())) {
            log.info("job-guard: job '{}' called directly (not by its schedule), guarded as the fire time of its "
                    + "schedule at or before now, T={} (logged once per job)", job.options().name(), fireTime);
        }
        return fireTime;
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
