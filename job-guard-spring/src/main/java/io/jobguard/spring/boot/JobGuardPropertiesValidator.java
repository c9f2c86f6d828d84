package io.jobguard.spring.boot;

import io.jobguard.RecoveryOptions;
import io.jobguard.internal.Counts;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;
import org.springframework.validation.Errors;

import java.util.List;
import java.util.function.Function;

/**
 * Checks the {@code jobguard.*} properties when Spring Boot binds them, so that a bad value fails
 * startup with Boot's report naming the property, its value and where it was set (for example
 * {@code jobguard.namespace=billing   # a comment}, where {@code #} is no comment in a
 * {@code .properties} file), instead of surfacing at the first firing or first batch (issue 20, row
 * 11; issue 13, item 2). Names follow job-guard's one name rule ({@link Names}); durations and
 * counts the ranges the core accepts ({@link TimeBounds}, {@link Counts}).
 */
final class JobGuardPropertiesValidator {

    private JobGuardPropertiesValidator() {
    }

    /** Checks any of job-guard's validated properties records (the one entry of {@link ValidatedOnBinding}). */
    static void validate(Object properties, Errors errors) {
        if (properties instanceof JobGuardProperties p) {
            validate(p, errors);
        } else if (properties instanceof JobGuardBatchProperties b) {
            validate(b, errors);
        } else if (properties instanceof JobGuardRedisProperties r) {
            check(errors, "durableAcquire", v -> r.durableAcquireSettings(), r.durableAcquire());
        } else {
            throw new IllegalArgumentException("not job-guard properties: " + properties);
        }
    }

    static void validate(JobGuardProperties p, Errors errors) {
        optional(errors, "namespace", v -> Names.namespace(v, "jobguard.namespace"), p.namespace());
        optional(errors, "nodeId", v -> Names.name(v, "jobguard.node-id"), p.nodeId());
        check(errors, "keyPrefix", v -> Names.keyPrefix(v, "jobguard.key-prefix"), p.keyPrefix());
        check(errors, "defaultLease", v -> TimeBounds.lease(v, "jobguard.default-lease"), p.defaultLease());
        optional(errors, "defaultWaitFor", v -> TimeBounds.nonNegative(v, "jobguard.default-wait-for"),
                p.defaultWaitFor());
        optional(errors, "busyGrace", v -> TimeBounds.nonNegative(v, "jobguard.busy-grace"), p.busyGrace());
        check(errors, "skewTolerance", v -> TimeBounds.positive(v, "jobguard.skew-tolerance"), p.skewTolerance());
        optional(errors, "catchUpWindow", v -> RecoveryOptions.checkWindow(v, "jobguard.catch-up-window"),
                p.catchUpWindow());
        optional(errors, "catchUpMax", v -> RecoveryOptions.checkMax(v, "jobguard.catch-up-max"), p.catchUpMax());
        check(errors, "historySize", v -> Counts.nonNegative(v, "jobguard.history-size"), p.historySize());
        // jobguard.jobs.<name>.* is checked where it is applied, naming the job and its method
        // (PropertiesJobOptionsCustomizer); a name that matches no job is JobPropertiesCheck's WARN.
    }

    static void validate(JobGuardBatchProperties b, Errors errors) {
        check(errors, "chunkSize", v -> Counts.positive(v, "jobguard.batch.chunk-size"), b.chunkSize());
        check(errors, "maxKeys", v -> Counts.positive(v, "jobguard.batch.max-keys"), b.maxKeys());
        check(errors, "maxKeyLength", v -> Counts.positive(v, "jobguard.batch.max-key-length"), b.maxKeyLength());
        check(errors, "waitPollInterval", v -> TimeBounds.positive(v, "jobguard.batch.wait-poll-interval"),
                b.waitPollInterval());
        check(errors, "defaultLease", v -> TimeBounds.lease(v, "jobguard.batch.default-lease"), b.defaultLease());
        optional(errors, "defaultWaitFor", v -> TimeBounds.nonNegative(v, "jobguard.batch.default-wait-for"),
                b.defaultWaitFor());
        List<String> namespaces = b.namespaces();
        for (int i = 0; i < namespaces.size(); i++) {
            int index = i;
            check(errors, "namespaces[" + i + "]",
                    v -> Names.namespace(v, "jobguard.batch.namespaces[" + index + "]"), namespaces.get(i));
        }
    }

    /** Applies a core rule to a value that may be unset (null: nothing to check). */
    private static <T> void optional(Errors errors, String field, Function<T, ?> rule, T value) {
        if (value != null) {
            check(errors, field, rule, value);
        }
    }

    /** Applies a core rule; its message, which names the property, becomes the field's error. */
    private static <T> void check(Errors errors, String field, Function<T, ?> rule, T value) {
        try {
            rule.apply(value);
        } catch (IllegalArgumentException e) {
            errors.rejectValue(field, "jobguard.invalid", e.getMessage());
        }
    }
}
