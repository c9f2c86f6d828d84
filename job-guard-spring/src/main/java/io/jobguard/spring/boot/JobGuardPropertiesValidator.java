package io.jobguard.spring.boot;

import io.jobguard.internal.Counts;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;
import org.springframework.validation.Errors;

import java.time.Duration;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * Checks the {@code jobguard.*} properties when Spring Boot binds them, so that a bad value fails
 * startup with Boot's report naming the property, its value and where it was set (for example
 * {@code jobguard.namespace=billing   # a comment}, where {@code #} is no comment in a
 * {@code .properties} file), instead of surfacing at the first firing or first batch, where the
 * cause would be far from the setting. Names follow job-guard's one name rule ({@link Names}); durations and
 * counts the ranges the core accepts ({@link TimeBounds}, {@link Counts}).
 */
final class JobGuardPropertiesValidator {

    private JobGuardPropertiesValidator() {
    }

    /** Checks any of job-guard's validated properties records (the one entry of {@link ValidatedOnBinding}). */
    static void validate(Object properties, Errors errors) {
        if (properties instanceof JobGuardProperties p) {
            validate(p, new Checks(errors, "jobguard."));
        } else if (properties instanceof JobGuardBatchProperties b) {
            validate(b, new Checks(errors, "jobguard.batch."));
        } else if (properties instanceof JobGuardRedisProperties r) {
            new Checks(errors, "jobguard.redis.").required("durableAcquire", r, (v, property) -> v.durableAcquireSettings());
        } else {
            throw new IllegalArgumentException("not job-guard properties: " + properties);
        }
    }

    private static void validate(JobGuardProperties p, Checks checks) {
        checks.optional("namespace", p.namespace(), Names::namespace);
        checks.optional("nodeId", p.nodeId(), Names::name);
        checks.required("keyPrefix", p.keyPrefix(), Names::keyPrefix);
        checks.defaults(p.defaultLease(), p.defaultWaitFor());
        checks.optional("busyGrace", p.busyGrace(), TimeBounds::nonNegative);
        checks.required("skewTolerance", p.skewTolerance(), TimeBounds::positive);
        checks.optional("catchUpWindow", p.catchUpWindow(), TimeBounds::catchUpWindow);
        checks.optional("catchUpMax", p.catchUpMax(), Counts::catchUpMax);
        checks.optional("historySize", p.historySize(), Counts::nonNegative);
        checks.optional("history.size", p.history().size(), Counts::nonNegative);
        checks.required("history.retention", p.history().retention(), TimeBounds::nonNegative);
        if (p.historySize() != null && p.history().size() != null && !p.historySize().equals(p.history().size())) {
            checks.reject("history.size", "jobguard.history.size (" + p.history().size() + ") and its older name"
                    + " jobguard.history-size (" + p.historySize() + ") differ: set only jobguard.history.size");
        }
        // jobguard.jobs.<name>.* is checked where it is applied, naming the job and its method
        // (core's JobOptionsResolver, through JobGuardPropertiesSources); a name that matches no job is JobPropertiesCheck's WARN.
    }

    private static void validate(JobGuardBatchProperties b, Checks checks) {
        checks.required("chunkSize", b.chunkSize(), Counts::positive);
        checks.required("maxKeys", b.maxKeys(), Counts::positive);
        checks.required("maxKeyLength", b.maxKeyLength(), Counts::positive);
        checks.required("waitPollInterval", b.waitPollInterval(), TimeBounds::positive);
        checks.defaults(b.defaultLease(), b.defaultWaitFor());
        for (int i = 0; i < b.namespaces().size(); i++) {
            checks.required("namespaces[" + i + "]", b.namespaces().get(i), Names::namespace);
        }
    }

    /**
     * Applies core rules to the fields of one bound record. A rule takes the value and the name of its property
     * ({@code prefix} and the field in kebab case), and its message, which names the property, becomes the
     * field's error.
     */
    private record Checks(Errors errors, String prefix) {

        /** The lease and wait-for that jobs (or batch acquisitions) not setting their own get. */
        void defaults(Duration defaultLease, Duration defaultWaitFor) {
            required("defaultLease", defaultLease, TimeBounds::lease);
            optional("defaultWaitFor", defaultWaitFor, TimeBounds::nonNegative);
        }

        void reject(String field, String message) {
            errors.rejectValue(field, "jobguard.invalid", message);
        }

        <T> void optional(String field, T value, BiFunction<T, String, ?> rule) {
            if (value != null) {
                required(field, value, rule);
            }
        }

        <T> void required(String field, T value, BiFunction<T, String, ?> rule) {
            try {
                rule.apply(value, prefix + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                errors.rejectValue(field, "jobguard.invalid", e.getMessage());
            }
        }
    }
}
