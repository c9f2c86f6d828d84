package io.jobguard.spring.boot;

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
 * counts the ranges the core accepts ({@link TimeBounds}).
 */
final class JobGuardPropertiesValidator {

    private JobGuardPropertiesValidator() {
    }

    static void validate(JobGuardProperties p, Errors errors) {
        if (p.getNamespace() != null) {
            check(errors, "namespace", v -> Names.namespace(v, "jobguard.namespace"), p.getNamespace());
        }
        if (p.getNodeId() != null) {
            check(errors, "nodeId", v -> Names.name(v, "jobguard.node-id"), p.getNodeId());
        }
        check(errors, "keyPrefix", v -> Names.keyPrefix(v, "jobguard.key-prefix"), p.getKeyPrefix());
        check(errors, "defaultLease", v -> TimeBounds.lease(v, "jobguard.default-lease"), p.getDefaultLease());
        if (p.getDefaultWaitFor() != null) {
            check(errors, "defaultWaitFor", v -> TimeBounds.nonNegative(v, "jobguard.default-wait-for"),
                    p.getDefaultWaitFor());
        }
        if (p.getBusyGrace() != null) {
            check(errors, "busyGrace", v -> TimeBounds.nonNegative(v, "jobguard.busy-grace"), p.getBusyGrace());
        }
        check(errors, "skewTolerance", v -> TimeBounds.positive(v, "jobguard.skew-tolerance"), p.getSkewTolerance());
        if (p.getCatchUpWindow() != null) {
            check(errors, "catchUpWindow", v -> io.jobguard.RecoveryOptions.checkWindow(v, "jobguard.catch-up-window"),
                    p.getCatchUpWindow());
        }
        if (p.getCatchUpMax() != null) {
            check(errors, "catchUpMax", v -> io.jobguard.RecoveryOptions.checkMax(v, "jobguard.catch-up-max"),
                    p.getCatchUpMax());
        }
        if (p.getHistorySize() < 0) {
            errors.rejectValue("historySize", "jobguard.invalid",
                    "jobguard.history-size must not be negative, got " + p.getHistorySize());
        }
        // jobguard.jobs.<name>.* is checked where it is applied, naming the job and its method
        // (PropertiesJobOptionsCustomizer); a name that matches no job is JobPropertiesCheck's WARN.
    }

    static void validate(JobGuardBatchProperties b, Errors errors) {
        positive(errors, "chunkSize", "jobguard.batch.chunk-size", b.getChunkSize());
        positive(errors, "maxKeys", "jobguard.batch.max-keys", b.getMaxKeys());
        positive(errors, "maxKeyLength", "jobguard.batch.max-key-length", b.getMaxKeyLength());
        check(errors, "waitPollInterval", v -> TimeBounds.positive(v, "jobguard.batch.wait-poll-interval"),
                b.getWaitPollInterval());
        check(errors, "defaultLease", v -> TimeBounds.lease(v, "jobguard.batch.default-lease"), b.getDefaultLease());
        if (b.getDefaultWaitFor() != null) {
            check(errors, "defaultWaitFor", v -> TimeBounds.nonNegative(v, "jobguard.batch.default-wait-for"),
                    b.getDefaultWaitFor());
        }
        List<String> namespaces = b.getNamespaces();
        for (int i = 0; i < namespaces.size(); i++) {
            int index = i;
            check(errors, "namespaces[" + i + "]",
                    v -> Names.namespace(v, "jobguard.batch.namespaces[" + index + "]"), namespaces.get(i));
        }
    }

    private static void positive(Errors errors, String field, String property, int value) {
        if (value <= 0) {
            errors.rejectValue(field, "jobguard.invalid", property + " must be positive, got " + value);
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
