package io.jobguard.spring.firing;

import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.StringValueResolver;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;

/**
 * The schedule of one guarded {@code @Scheduled} method, resolved at startup, and the cluster-wide fire-time grid it
 * defines. The grid: cron times in the cron's zone, fixed-rate times aligned to multiples
 * of the period since the epoch (plus {@code initialDelay mod period}). Fixed-delay and one-time
 * schedules have no grid: each node's own firing instant is its nominal time. Immutable.
 *
 * <p>Internal to job-guard's Spring integration; not an API.
 *
 * @param kind         which {@code @Scheduled} attribute defines the schedule
 * @param cron         the cron expression (CRON only)
 * @param zone         the cron's zone (CRON only)
 * @param period       the fixed rate or fixed delay (FIXED_RATE, FIXED_DELAY)
 * @param initialDelay the initial delay, zero when none
 */
public record ScheduleSpec(Kind kind, CronExpression cron, ZoneId zone, Duration period, Duration initialDelay) {

    /** Which kind of schedule. */
    public enum Kind {
        /** A cron expression. */
        CRON,
        /** A fixed rate. */
        FIXED_RATE,
        /** A fixed delay between the end of one run and the start of the next. */
        FIXED_DELAY,
        /** A single run after an initial delay. */
        ONE_TIME,
        /** A cron expression of {@code "-"}: never fires. */
        DISABLED
    }

    /**
     * Reads a {@code @Scheduled} annotation the way Spring does, resolving placeholders.
     *
     * @param scheduled the annotation
     * @param resolver  resolves {@code ${...}} placeholders (may be null)
     * @param culprit   names the method in error messages
     * @return the schedule
     * @throws IllegalStateException naming the culprit if the schedule cannot be read
     */
    public static ScheduleSpec of(Scheduled scheduled, StringValueResolver resolver, String culprit) {
        TimeUnit unit = scheduled.timeUnit();
        Duration initialDelay = duration(scheduled.initialDelay(), scheduled.initialDelayString(), unit, resolver,
                culprit + " initialDelay");
        initialDelay = initialDelay == null ? Duration.ZERO : initialDelay;
        String cron = resolve(scheduled.cron(), resolver);
        if (!cron.isEmpty()) {
            if (ScheduledTaskRegistrar.CRON_DISABLED.equals(cron)) {
                return new ScheduleSpec(Kind.DISABLED, null, null, null, Duration.ZERO);
            }
            String zoneText = resolve(scheduled.zone(), resolver);
            ZoneId zone = zoneText.isEmpty() ? TimeZone.getDefault().toZoneId() : ZoneId.of(zoneText);
            try {
                return new ScheduleSpec(Kind.CRON, CronExpression.parse(cron), zone, null, Duration.ZERO);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(culprit + ": cannot parse cron '" + cron + "': " + e.getMessage(), e);
            }
        }
        Duration rate = duration(scheduled.fixedRate(), scheduled.fixedRateString(), unit, resolver,
                culprit + " fixedRate");
        if (rate != null) {
            return new ScheduleSpec(Kind.FIXED_RATE, null, null, requirePositive(rate, culprit), initialDelay);
        }
        Duration delay = duration(scheduled.fixedDelay(), scheduled.fixedDelayString(), unit, resolver,
                culprit + " fixedDelay");
        if (delay != null) {
            return new ScheduleSpec(Kind.FIXED_DELAY, null, null, requirePositive(delay, culprit), initialDelay);
        }
        return new ScheduleSpec(Kind.ONE_TIME, null, null, null, initialDelay);
    }

    /**
     * The latest fire time of the cluster-wide grid at or before {@code now}; for schedules without
     * a grid, {@code now} truncated to milliseconds.
     *
     * @param now the current instant by the scheduler's clock
     * @return the nominal fire time a direct call of the method is guarded with
     */
    public Instant latestAtOrBefore(Instant now) {
        Instant millis = now.truncatedTo(ChronoUnit.MILLIS);
        switch (kind) {
            case FIXED_RATE: {
                long p = period.toMillis();
                long o = Math.floorMod(initialDelay.toMillis(), p);
                long nominalFireTimeMillis = Math.floorDiv(millis.toEpochMilli() - o, p) * p + o;
                return Instant.ofEpochMilli(nominalFireTimeMillis);
            }
            case CRON:
                return latestCron(millis);
            default:
                return millis;
        }
    }

    /**
     * The first fire time of the grid strictly after {@code after}, or null when none is known.
     *
     * @param after the instant to start from
     * @return the next nominal fire time, or null for schedules without a grid
     */
    public Instant nextAfter(Instant after) {
        switch (kind) {
            case FIXED_RATE:
                return latestAtOrBefore(after).plus(period);
            case CRON: {
                ZonedDateTime next = cron.next(after.atZone(zone));
                return next == null ? null : next.toInstant();
            }
            default:
                return null;
        }
    }

    /**
     * The period after {@code after}: the gap between the grid's next two fire times (a cron's gaps may differ:
     * this is the one ahead), the delay of a fixed-delay schedule, or null when there is none (one-time, disabled,
     * a cron with fewer than two fire times left).
     *
     * @param after the instant to start from
     * @return the period, or null
     */
    public Duration periodAfter(Instant after) {
        switch (kind) {
            case FIXED_RATE:
            case FIXED_DELAY:
                return period;
            case CRON: {
                Instant next = nextAfter(after);
                Instant following = next == null ? null : nextAfter(next);
                return following == null ? null : Duration.between(next, following);
            }
            default:
                return null;
        }
    }

    /**
     * The schedule as a user would write it, for logs and the actuator.
     *
     * @return for example {@code cron "* * * * * *" (UTC)} or {@code fixedRate PT1S}
     */
    public String describe() {
        switch (kind) {
            case CRON:
                return "cron \"" + cron + "\" (" + zone + ")";
            case FIXED_RATE:
                return "fixedRate " + period + (initialDelay.isZero() ? "" : ", initialDelay " + initialDelay);
            case FIXED_DELAY:
                return "fixedDelay " + period + (initialDelay.isZero() ? "" : ", initialDelay " + initialDelay);
            case ONE_TIME:
                return "once after " + initialDelay;
            default:
                return "disabled";
        }
    }

    private Instant latestCron(Instant now) {
        ZonedDateTime at = now.atZone(zone);
        // CronExpression only looks forward: widen a look-back window until a fire time falls in it
        for (Duration window = Duration.ofMinutes(1); window.compareTo(Duration.ofDays(3000)) <= 0;
             window = window.multipliedBy(4)) {
            ZonedDateTime candidate = cron.next(at.minus(window));
            if (candidate != null && !candidate.isAfter(at)) {
                ZonedDateTime next = cron.next(candidate);
                while (next != null && !next.isAfter(at)) {
                    candidate = next;
                    next = cron.next(candidate);
                }
                return candidate.toInstant();
            }
        }
        return now;
    }

    private static Duration requirePositive(Duration d, String culprit) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalStateException(culprit + ": the @Scheduled period must be positive, got " + d);
        }
        return d;
    }

    private static Duration duration(long value, String text, TimeUnit unit, StringValueResolver resolver,
                                     String culprit) {
        String resolved = resolve(text, resolver);
        if (!resolved.isEmpty()) {
            try {
                return DurationFormatterUtils.detectAndParse(resolved,
                        DurationFormat.Unit.fromChronoUnit(unit.toChronoUnit()));
            } catch (RuntimeException e) {
                throw new IllegalStateException(culprit + ": cannot parse '" + resolved + "'", e);
            }
        }
        return value < 0 ? null : Duration.of(value, unit.toChronoUnit());
    }

    private static String resolve(String value, StringValueResolver resolver) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        String resolved = resolver == null ? value : resolver.resolveStringValue(value);
        return resolved == null ? "" : resolved.trim();
    }
}
