package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.DurationParser;
import io.jobguard.GuardType;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

import java.lang.reflect.Method;
import java.time.Duration;

/**
 * One {@link BatchLocked} method, parsed and checked once when its bean is proxied, so a bad
 * namespace, duration or expression fails at startup naming the method.
 */
record BatchLockedMethod(String namespace, Expression keys, GuardType type, Duration lease, Duration waitFor,
                         boolean keepAlive, BatchLocked.Unavailable whenUnavailable) {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();

    static BatchLockedMethod parse(Method method, BatchLocked annotation, Duration defaultLease, Duration defaultWaitFor) {
        String culprit = "@BatchLocked on " + method.getDeclaringClass().getName() + "." + method.getName();
        try {
            Names.namespace(annotation.namespace(), "namespace");
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(culprit + ": " + e.getMessage(), e);
        }
        if (annotation.keys().isBlank()) {
            throw new IllegalStateException(culprit + ": keys must be a SpEL expression over the arguments");
        }
        Expression keys;
        try {
            keys = PARSER.parseExpression(annotation.keys());
        } catch (ParseException e) {
            throw new IllegalStateException(culprit + ": keys expression '" + annotation.keys() + "' does not parse: "
                    + e.getMessage(), e);
        }
        Duration lease = annotation.lease().isBlank() ? defaultLease : DurationParser.parse(annotation.lease(), culprit + " lease");
        if (lease.isZero() || lease.isNegative()) {
            throw new IllegalStateException(culprit + ": lease must be positive, got " + annotation.lease());
        }
        bounded(() -> TimeBounds.lease(lease, "lease"), culprit);
        Duration waitFor = annotation.waitFor().isBlank() ? (defaultWaitFor == null ? lease : defaultWaitFor)
                : DurationParser.parse(annotation.waitFor(), culprit + " waitFor");
        if (waitFor.isNegative()) {
            throw new IllegalStateException(culprit + ": waitFor must not be negative, got " + annotation.waitFor());
        }
        bounded(() -> TimeBounds.nonNegative(waitFor, "waitFor"), culprit);
        if (annotation.whenUnavailable() == BatchLocked.Unavailable.SKIP && method.getReturnType() != void.class) {
            throw new IllegalStateException(culprit + ": whenUnavailable = SKIP needs a void method; "
                    + method.getName() + " returns " + method.getReturnType().getSimpleName()
                    + " and cannot silently skip");
        }
        return new BatchLockedMethod(annotation.namespace(), keys, annotation.type(), lease, waitFor,
                annotation.keepAlive(), annotation.whenUnavailable());
    }

    /** Runs a core range check, reporting a violation as a startup error naming the method. */
    private static void bounded(Runnable check, String culprit) {
        try {
            check.run();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(culprit + ": " + e.getMessage(), e);
        }
    }
}
