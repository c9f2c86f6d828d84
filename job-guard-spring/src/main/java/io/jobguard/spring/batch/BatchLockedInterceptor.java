package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockUnavailableException;
import io.jobguard.batch.BatchLocks;
import io.jobguard.batch.BatchRequest;
import io.jobguard.batch.BatchResult;
import io.jobguard.spring.observation.BatchObservationContext;
import io.jobguard.spring.observation.BatchObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;

import java.lang.reflect.Method;
import java.util.List;

/**
 * Evaluates a {@link BatchLocked} method's keys over its arguments, locks them all, runs the method
 * and releases them; never runs the method without the lock.
 */
final class BatchLockedInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(BatchLockedInterceptor.class);
    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    private final ObjectProvider<BatchLocks> locks;
    private final BatchLockedAdvisor advisor;
    private final ObjectProvider<ObservationRegistry> observations;
    private static final BatchObservationConvention CONVENTION = new BatchObservationConvention();

    BatchLockedInterceptor(ObjectProvider<BatchLocks> locks, BatchLockedAdvisor advisor,
                           ObjectProvider<ObservationRegistry> observations) {
        this.locks = locks;
        this.advisor = advisor;
        this.observations = observations;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target == null ? invocation.getMethod().getDeclaringClass() : AopUtils.getTargetClass(target);
        Method method = AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass);
        BatchLockedMethod spec = advisor.describe(invocation.getMethod(), targetClass).orElse(null);
        if (spec == null) {
            return invocation.proceed();
        }
        List<String> keys = keys(spec, method, target, invocation.getArguments());
        BatchRequest request = new BatchRequest(spec.namespace(), keys, spec.lease(), spec.type(), spec.waitFor(),
                spec.keepAlive());
        BatchAttempt attempt;
        BatchObservationContext observed = new BatchObservationContext(spec.namespace(), keys.size());
        Observation observation = Observation.createNotStarted(CONVENTION, () -> observed,
                observations.getIfAvailable(() -> ObservationRegistry.NOOP)).start();
        try {
            attempt = locks.getObject().acquire(request);
            observed.result(attempt.result().name());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            observed.result(BatchResult.INTERRUPTED.name());
            throw new BatchLockUnavailableException(spec.namespace(), keys.size(), BatchResult.INTERRUPTED, List.of());
        } catch (RuntimeException | Error e) {
            observed.result("ERROR");
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
        if (!attempt.acquired()) {
            if (spec.whenUnavailable() == BatchLocked.Unavailable.SKIP) {
                log.debug("job-guard: skipped {}.{}: {}", targetClass.getSimpleName(), method.getName(), attempt);
                return null;
            }
            attempt.orElseThrow();
        }
        try (BatchLease lease = attempt.orElseThrow()) {
            log.debug("job-guard: {}.{} runs holding {}", targetClass.getSimpleName(), method.getName(), lease);
            return invocation.proceed();
        }
    }

    private static List<String> keys(BatchLockedMethod spec, Method method, Object target, Object[] args) {
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(target, method, args, NAMES);
        Object value = spec.keys().getValue(context);
        String culprit = "@BatchLocked on " + method.getDeclaringClass().getName() + "." + method.getName();
        if (value == null) {
            throw new IllegalArgumentException(culprit + ": keys expression '" + spec.keys().getExpressionString()
                    + "' evaluated to null");
        }
        return BatchKeys.of(value, culprit + ": keys expression '" + spec.keys().getExpressionString() + "'");
    }
}
