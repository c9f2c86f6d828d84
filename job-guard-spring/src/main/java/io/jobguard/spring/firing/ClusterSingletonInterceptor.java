package io.jobguard.spring.firing;

import io.jobguard.Fired;
import io.jobguard.FiringBody;
import io.jobguard.FiringObserver;
import io.jobguard.JobGuard;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.spring.observation.RunObservations;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.KotlinDetector;
import org.springframework.util.function.SingletonSupplier;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Guards one call of a {@code @ClusterSingleton} method: the single owner, on the Spring side, of a
 * firing. A call made by a handedOff firing takes the nominal fire time the scheduler decorator
 * attached to the thread ({@link FireTimeHandOff}); any other call (the method invoked directly by
 * application code) is guarded with the latest fire time of its schedule at or before now (now by the
 * scheduler's clock): it counts as that firing, so it runs unless the firing ran somewhere already,
 * and a firing it took is not run again. Fixed-delay and one-time schedules have no grid: a direct
 * call uses now, and the cluster-wide cool-down still applies. Either way the whole firing is one
 * {@link JobGuard#fire} call with the job's one {@link GuardedJob#options() options} (admission, with the
 * recovery of lost fire times when the job has one; run; finish; outcome), observed nested under the current observation (Spring's observation of the
 * handedOff method, for a handedOff firing). A call made while the thread already runs under a permit
 * of the same job (a recovery run, a nested call) is part of that run and is not guarded again. A
 * skipped call returns {@code null} (or zero/false for a primitive return type).
 */
final class ClusterSingletonInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(ClusterSingletonInterceptor.class);

    private final GuardedJobRegistry registry;
    private final FireTimeHandOff fireTimeHandOff;
    private final Supplier<JobGuard> guard;
    private final RunObservations observations;
    private final Set<String> directCallsLogged = ConcurrentHashMap.newKeySet();

    /**
     * @param guard the engine, looked up at the first call (not while beans are being created)
     */
    ClusterSingletonInterceptor(GuardedJobRegistry registry, FireTimeHandOff fireTimeHandOff, Supplier<JobGuard> guard,
                                RunObservations observations) {
        this.registry = registry;
        this.fireTimeHandOff = fireTimeHandOff;
        this.guard = SingletonSupplier.of(guard);
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
            return assembled == null ? null : AsyncRuns.guardSubscriptions(assembled, () -> subscription(job));
        }
        Instant handedOff = fireTimeHandOff.take(job);
        if (handedOff == null && insideRunOf(job)) {
            return invocation.proceed();
        }
        Instant nominalFireTime = handedOff != null ? handedOff : directNominalFireTime(job);
        Observed observed = new Observed(observations.start(guard.get(), job.options(), nominalFireTime));
        Fired<Object> fired;
        try {
            fired = guard.get().fire(job.options(), nominalFireTime, body(invocation, observed.observation), observed);
        } catch (Throwable e) {
            observed.failedUnended(e);
            throw e;
        }
        return fired.started() ? fired.value() : skipped(returnType);
    }

    /**
     * The method's work as one firing's body: a Kotlin suspend method ends when its coroutine completes
     * (not when it first suspends), a method returning a {@code CompletionStage} when the stage completes,
     * any other when it returns or throws. Each recovery run is a fresh pass through the advice chain.
     */
    private static FiringBody<Object> body(MethodInvocation invocation, RunObservations.Running observation) {
        Runnable recoveryRun = RecoveryBodies.of(invocation);
        if (KotlinDetector.isSuspendingFunction(invocation.getMethod())) {
            return FiringBody.ofCallback(end -> {
                end.unbindFromCurrentThread();
                observation.detach();
                return SuspendingRuns.proceed(invocation, end::end);
            }, recoveryRun);
        }
        if (AsyncRuns.completionStage(invocation.getMethod().getReturnType())) {
            return FiringBody.ofCompletionStage(() -> {
                Object returned = invocation.proceed();
                observation.detach();
                return returned;
            }).withRecoveryRun(recoveryRun);
        }
        return FiringBody.of(invocation::proceed).withRecoveryRun(recoveryRun);
    }

    /**
     * One subscription of a reactive method as one firing with the job's options (its recovery included,
     * as for any other call): the handedOff firing's fire time, else a direct subscription's own.
     */
    private AsyncRuns.Subscription subscription(GuardedJob job) {
        Instant handedOff = fireTimeHandOff.take(job);
        return new AsyncRuns.Subscription(guard.get(), job.options(),
                handedOff != null ? handedOff : directNominalFireTime(job));
    }

    /** Whether the current thread already runs under a permit of {@code job} (a recovery body, a nested call). */
    private static boolean insideRunOf(GuardedJob job) {
        return RunContext.current().map(c -> c.job().equals(job.options().name())).orElse(false);
    }

    /** One firing's observation, told by the engine when the run starts and how the firing ended. */
    private static final class Observed implements FiringObserver {
        private final RunObservations.Running observation;
        private volatile boolean ended;

        Observed(RunObservations.Running observation) {
            this.observation = observation;
        }

        @Override
        public void started(RunContext run) {
            observation.decided(run);
        }

        @Override
        public void ended(RunOutcome outcome, Throwable failure) {
            ended = true;
            observation.stop(outcome, failure);
        }

        /** The engine threw before the firing was decided (an invalid fire time): no outcome to observe. */
        void failedUnended(Throwable failure) {
            if (!ended) {
                observation.stop(null, failure);
            }
        }
    }

    /** A direct call's fire time: the latest of its schedule at or before now. */
    private Instant directNominalFireTime(GuardedJob job) {
        Instant nominalFireTime = job.schedule().latestAtOrBefore(job.clock().instant());
        if (directCallsLogged.add(job.options().name())) {
            log.info("job-guard: job '{}' called directly (not by its schedule), guarded as the fire time of its "
                    + "schedule at or before now, T={} (logged once per job)", job.options().name(), nominalFireTime);
        }
        return nominalFireTime;
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
