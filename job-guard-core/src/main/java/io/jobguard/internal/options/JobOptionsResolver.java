package io.jobguard.internal.options;

import io.jobguard.ClusterSingleton;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.GuardType;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.RetryPolicy;
import io.jobguard.internal.Counts;
import io.jobguard.internal.TimeBounds;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Resolves one job's {@link JobOptions}, with its {@link RecoveryOptions}, from its sources in this
 * order: the job's own settings (Spring's {@code jobguard.jobs.<name>.*}, Quartz's {@code JobDataMap}),
 * then its {@link ClusterSingleton @ClusterSingleton}, then the defaults (Spring's {@code jobguard.*}
 * and the engine's default lease; Quartz's install-time defaults and the trigger's misfire
 * instruction). The first source that sets an attribute wins; an annotation's empty string (and
 * {@code catchUpMax = 0}, {@code historySize = -1}) sets nothing. Two exceptions keep the annotation's
 * non-string elements meaningful: an annotation's {@code type} always beats the defaults, and {@code keepAlive} is on only
 * when no source turns it off, unless the job's own setting turns it on.
 *
 * <p>The job recovers lost fire times (its options carry {@link RecoveryOptions}) when a misfire
 * policy or a delivery is set by some source. A job with a grid of fire times for which neither is
 * set follows the accounting rule by default ({@link MisfirePolicy#SKIP}, {@link Delivery#AT_MOST_ONCE}:
 * each fire time nobody started is reported {@code MISSED} once, none runs late; docs/missed-fire-times.md,
 * "Configuration"). Every value is parsed and checked, whether it
 * is used or not, and a refusal is an {@link IllegalArgumentException} naming the source and the job
 * ({@code @ClusterSingleton(misfirePolicy) of job 'nightly' is "LATER", not one of [...]}), so Spring
 * and Quartz refuse the same value with the same message. This is the only reader of the annotation's
 * attributes.
 */
public final class JobOptionsResolver {

    /** The largest history size a source may set: 10 million entries would take about a GiB of Redis memory. */
    public static final int MAX_HISTORY_SIZE = 10_000_000;

    private JobOptionsResolver() {
    }

    /**
     * The inputs of one resolution.
     *
     * @param defaultName  the job name when no source sets one ({@code Bean.method}, Quartz's {@code group.name})
     * @param own          the job's own settings
     * @param annotation   the job's annotation, or null
     * @param placeholders resolves placeholders in the annotation's strings (identity when there are none)
     * @param defaults     the defaults; must set {@link JobAttribute#LEASE}
     * @param cooldown     the fixed-delay cool-down the schedule implies, zero for none
     * @param schedule     the job's grid of fire times for its recovery, or null (fixed delay, or not known)
     */
    public record Sources(String defaultName, OptionSource own, ClusterSingleton annotation,
                          UnaryOperator<String> placeholders, OptionSource defaults, Duration cooldown,
                          FireTimeSchedule schedule) {

        /** Replaces null sources with {@link OptionSource#NONE}, null placeholders with identity, null cool-down with zero. */
        public Sources {
            own = own == null ? OptionSource.NONE : own;
            placeholders = placeholders == null ? UnaryOperator.identity() : placeholders;
            defaults = defaults == null ? OptionSource.NONE : defaults;
            cooldown = cooldown == null ? Duration.ZERO : cooldown;
        }
    }

    /**
     * Resolves a job's options.
     *
     * @param sources the job's sources
     * @return the options, with recovery when a misfire policy or a delivery is set, or by default (see above)
     * @throws IllegalArgumentException naming the source, the job and the value when one is invalid
     */
    public static JobOptions resolve(Sources sources) {
        Objects.requireNonNull(sources, "sources");
        Found named = find(sources, JobAttribute.NAME, null);
        String name = named == null || OptionValues.text(named.value()) == null ? sources.defaultName()
                : OptionValues.text(named.value());
        Duration lease = duration(sources, JobAttribute.LEASE, name);
        Duration waitFor = duration(sources, JobAttribute.WAIT_FOR, name);
        Duration busyGrace = duration(sources, JobAttribute.BUSY_GRACE, name);
        Found typed = find(sources, JobAttribute.TYPE, name);
        GuardType type = typed == null ? null : OptionValues.constant(GuardType.class, typed.value(), typed.culprit(name));
        Found kept = find(sources, JobAttribute.KEEP_ALIVE, name);
        Boolean keepAlive = kept == null ? null : OptionValues.bool(kept.value(), kept.culprit(name));
        Found policyFound = find(sources, JobAttribute.MISFIRE_POLICY, name);
        MisfirePolicy policy = policyFound == null ? null
                : OptionValues.constant(MisfirePolicy.class, policyFound.value(), policyFound.culprit(name));
        Found deliveryFound = find(sources, JobAttribute.DELIVERY, name);
        Delivery delivery = deliveryFound == null ? null
                : OptionValues.constant(Delivery.class, deliveryFound.value(), deliveryFound.culprit(name));
        Found windowFound = find(sources, JobAttribute.CATCH_UP_WINDOW, name);
        Duration window = windowFound == null ? null
                : TimeBounds.catchUpWindow(OptionValues.duration(windowFound.value(), windowFound.culprit(name)),
                        windowFound.culprit(name));
        Found maxFound = find(sources, JobAttribute.CATCH_UP_MAX, name);
        Integer max = maxFound == null ? null
                : Integer.valueOf(Counts.catchUpMax(OptionValues.integer(maxFound.value(), maxFound.culprit(name)),
                        maxFound.culprit(name)));
        Found sizeFound = find(sources, JobAttribute.HISTORY_SIZE, name);
        Integer historySize = sizeFound == null ? null
                : Integer.valueOf(within(OptionValues.integer(sizeFound.value(), sizeFound.culprit(name)), 0,
                MAX_HISTORY_SIZE, sizeFound.culprit(name)).intValue());
        Found retentionFound = find(sources, JobAttribute.HISTORY_RETENTION, name);
        Duration historyRetention = retentionFound == null ? null
                : TimeBounds.nonNegative(OptionValues.duration(retentionFound.value(), retentionFound.culprit(name)),
                retentionFound.culprit(name));
        JobOptions.Builder builder = JobOptions.builder(name, lease)
                .historySize(historySize)
                .historyRetention(historyRetention)
                .retry(retry(sources, name))
                .waitFor(waitFor)
                .busyGrace(busyGrace)
                .keepAlive(keepAlive == null || keepAlive)
                .cooldown(sources.cooldown());
        if (type != null) {
            builder.type(type);
        }
        if (policy == null && delivery == null && sources.schedule() != null) {
            policy = MisfirePolicy.SKIP;
            delivery = Delivery.AT_MOST_ONCE;
        }
        if (policy != null || delivery != null) {
            builder.recovery(RecoveryOptions.builder().misfirePolicy(policy).delivery(delivery).catchUpWindow(window)
                    .catchUpMax(max == null ? RecoveryOptions.DEFAULT_CATCH_UP_MAX : max)
                    .schedule(sources.schedule()).build());
        }
        return builder.build();
    }

    /**
     * What the annotation sets for an attribute, or null when it sets nothing: an empty string,
     * {@code catchUpMax = 0}, {@code keepAlive = true} and {@code historySize = -1} (the elements' defaults) set nothing.
     *
     * @param annotation   the annotation
     * @param attribute    the attribute
     * @param placeholders resolves placeholders in strings
     * @return the value, or null
     */
    static Object annotationValue(ClusterSingleton annotation, JobAttribute attribute,
                                  UnaryOperator<String> placeholders) {
        return switch (attribute) {
            case NAME -> text(annotation.name(), placeholders);
            case TYPE -> annotation.type();
            case LEASE -> text(annotation.lease(), placeholders);
            case WAIT_FOR -> text(annotation.waitFor(), placeholders);
            case BUSY_GRACE -> text(annotation.busyGrace(), placeholders);
            case KEEP_ALIVE -> annotation.keepAlive() ? null : Boolean.FALSE;
            case MISFIRE_POLICY -> text(annotation.misfirePolicy(), placeholders);
            case DELIVERY -> text(annotation.delivery(), placeholders);
            case CATCH_UP_WINDOW -> text(annotation.catchUpWindow(), placeholders);
            case CATCH_UP_MAX -> annotation.catchUpMax() == 0 ? null : Integer.valueOf(annotation.catchUpMax());
            case ATTEMPTS -> annotation.attempts() == 0 ? null : Integer.valueOf(annotation.attempts());
            case RETRY_BACKOFF -> text(annotation.retryBackoff(), placeholders);
            case RETRY_MULTIPLIER -> text(annotation.retryMultiplier(), placeholders);
            case RETRY_MAX_BACKOFF -> text(annotation.retryMaxBackoff(), placeholders);
            case RETRY_JITTER -> text(annotation.retryJitter(), placeholders);
            case RETRY_ON -> annotation.retryOn().length == 0 ? null : annotation.retryOn();
            case NO_RETRY_ON -> annotation.noRetryOn().length == 0 ? null : annotation.noRetryOn();
            case HISTORY_SIZE -> annotation.historySize() < 0 ? null : Integer.valueOf(annotation.historySize());
            case HISTORY_RETENTION -> text(annotation.historyRetention(), placeholders);
        };
    }

    /**
     * The job's retry policy: {@link RetryPolicy#NONE} unless some source sets {@code attempts} above 1; every retry
     * value is parsed and checked all the same, each refusal naming its source and the job.
     */
    private static RetryPolicy retry(Sources sources, String job) {
        Found attemptsFound = find(sources, JobAttribute.ATTEMPTS, job);
        int attempts = attemptsFound == null ? 1
                : within(OptionValues.integer(attemptsFound.value(), attemptsFound.culprit(job)), 1,
                RetryPolicy.MAX_ATTEMPTS, attemptsFound.culprit(job)).intValue();
        Duration backoff = duration(sources, JobAttribute.RETRY_BACKOFF, job);
        if (backoff != null && backoff.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException(find(sources, JobAttribute.RETRY_BACKOFF, job).culprit(job) + " is "
                    + backoff + ", below the shortest retry delay (100ms)");
        }
        backoff = backoff == null ? RetryPolicy.DEFAULT_BACKOFF : backoff;
        Found multiplierFound = find(sources, JobAttribute.RETRY_MULTIPLIER, job);
        double multiplier = multiplierFound == null ? RetryPolicy.DEFAULT_MULTIPLIER
                : within(OptionValues.decimal(multiplierFound.value(), multiplierFound.culprit(job)), 1, 10,
                multiplierFound.culprit(job)).doubleValue();
        Duration maxBackoff = duration(sources, JobAttribute.RETRY_MAX_BACKOFF, job);
        if (maxBackoff != null && maxBackoff.compareTo(backoff) < 0) {
            throw new IllegalArgumentException(find(sources, JobAttribute.RETRY_MAX_BACKOFF, job).culprit(job) + " is "
                    + maxBackoff + ", shorter than the retry back-off (" + backoff + ")");
        }
        maxBackoff = maxBackoff == null ? max(backoff, RetryPolicy.DEFAULT_MAX_BACKOFF) : maxBackoff;
        Found jitterFound = find(sources, JobAttribute.RETRY_JITTER, job);
        double jitter = jitterFound == null ? RetryPolicy.DEFAULT_JITTER
                : within(OptionValues.decimal(jitterFound.value(), jitterFound.culprit(job)), 0, 1,
                jitterFound.culprit(job)).doubleValue();
        Found on = find(sources, JobAttribute.RETRY_ON, job);
        Found notOn = find(sources, JobAttribute.NO_RETRY_ON, job);
        return new RetryPolicy(attempts, backoff, multiplier, maxBackoff, jitter,
                on == null ? List.of() : OptionValues.throwables(on.value(), on.culprit(job)),
                notOn == null ? List.of() : OptionValues.throwables(notOn.value(), notOn.culprit(job)));
    }

    private static Number within(Number value, double min, double max, String culprit) {
        if (value == null) {
            throw new IllegalArgumentException(culprit + " is empty");
        }
        if (value.doubleValue() < min || value.doubleValue() > max) {
            throw new IllegalArgumentException(culprit + " is " + value + ", not within " + (long) min + " to "
                    + (long) max);
        }
        return value;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String text(String value, UnaryOperator<String> placeholders) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return OptionValues.text(placeholders.apply(value));
    }

    private static Duration duration(Sources sources, JobAttribute attribute, String job) {
        Found found = find(sources, attribute, job);
        return found == null ? null : OptionValues.duration(found.value(), found.culprit(job));
    }

    /** The first source, in order, that sets the attribute; null when none does. */
    private static Found find(Sources sources, JobAttribute attribute, String job) {
        Object own = sources.own().value(attribute, job);
        if (set(own)) {
            return new Found(own, sources.own().label(attribute, job));
        }
        if (sources.annotation() != null) {
            Object annotated = annotationValue(sources.annotation(), attribute, sources.placeholders());
            if (annotated != null) {
                return new Found(annotated, "@ClusterSingleton(" + attribute.element() + ")");
            }
        }
        Object fallback = sources.defaults().value(attribute, job);
        return set(fallback) ? new Found(fallback, sources.defaults().label(attribute, job)) : null;
    }

    private static boolean set(Object value) {
        return value != null && !(value instanceof String s && s.isBlank());
    }

    /** A value and the label of the source that set it. */
    private record Found(Object value, String label) {
        String culprit(String job) {
            return job == null ? label : label + " of job '" + job + "'";
        }
    }
}
