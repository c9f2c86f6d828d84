package io.jobguard.quartz;

import org.quartz.CronExpression;
import org.quartz.CronTrigger;
import org.quartz.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.text.ParseException;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns Quartz's scheduled fire time into the nominal fire time shared by every node. Normally they
 * are the same. A cron trigger whose misfire was handled with FIRE_ONCE_NOW (Quartz's "smart"
 * policy for cron) gets the node's "now" instead, which no other node would ever use; that time is
 * snapped back to the latest time of the cron schedule at or before it, so the late node competes
 * for the same T as the punctual ones.
 */
final class CronFireTimeSnap {

    private static final Logger log = LoggerFactory.getLogger(CronFireTimeSnap.class);

    private final Map<String, CronExpression> expressions = new ConcurrentHashMap<>();

    /**
     * Returns the nominal fire time of a firing: Quartz's scheduled fire time, snapped onto the cron schedule
     * when it is off it.
     *
     * @param trigger   the trigger that fired
     * @param scheduled {@code JobExecutionContext.getScheduledFireTime()}
     * @return the fire time on the trigger's schedule
     */
    Instant nominalFireTime(Trigger trigger, Date scheduled) {
        Instant quartzFireTime = scheduled.toInstant();
        if (!(trigger instanceof CronTrigger cron)) {
            return quartzFireTime;
        }
        CronExpression expression = cached(cron);
        if (expression == null || (quartzFireTime.getNano() == 0 && expression.isSatisfiedBy(scheduled))) {
            return quartzFireTime;
        }
        Date before = latestAtOrBefore(expression, scheduled);
        if (before == null) {
            return quartzFireTime;
        }
        Instant snapped = before.toInstant();
        log.debug("job-guard: cron trigger {} fired off-schedule at {} (misfire); nominal fire time snapped to {}",
                trigger.getKey(), quartzFireTime, snapped);
        return snapped;
    }

    /** How far back {@link #latestAtOrBefore} looks: a cron schedule fires at least once in this span. */
    private static final long LOOK_BACK_LIMIT_MILLIS = 4L * 366 * 24 * 3600 * 1000;

    /**
     * The latest time of the expression at or before {@code time}, or null if it has none within four years.
     * Walks forward with {@code getNextValidTimeAfter} from a start that doubles its distance back until the
     * span holds a match, so it visits about two fire times of the schedule. It does not use
     * {@code CronExpression.getTimeBefore}, which Quartz 2.5.0 (managed by Spring Boot 3.5) leaves unimplemented
     * (it answers null); Quartz 2.5.2 implements it.
     */
    static Date latestAtOrBefore(CronExpression expression, Date time) {
        long end = time.getTime();
        for (long back = 1_000; ; back = Math.min(back * 2, LOOK_BACK_LIMIT_MILLIS)) {
            // getNextValidTimeAfter answers the first match strictly after its argument, at 1 s resolution
            Date match = expression.getNextValidTimeAfter(new Date(end - back - 1));
            if (match == null || match.getTime() > end) {
                if (back == LOOK_BACK_LIMIT_MILLIS) {
                    return null;
                }
                continue;
            }
            for (Date next = expression.getNextValidTimeAfter(match); next != null && next.getTime() <= end;
                 next = expression.getNextValidTimeAfter(next)) {
                match = next;
            }
            return match;
        }
    }

    private CronExpression cached(CronTrigger cron) {
        String text = cron.getCronExpression();
        if (text == null) {
            return null;
        }
        return expressions.computeIfAbsent(zone(cron).getID() + '|' + text, k -> expression(cron));
    }

    /**
     * The trigger's cron expression in the trigger's time zone (the JVM's when it has none): the one
     * parse of a Quartz cron expression in this module.
     *
     * @param cron a trigger with a cron expression
     * @return a new expression
     */
    static CronExpression expression(CronTrigger cron) {
        String text = cron.getCronExpression();
        TimeZone zone = zone(cron);
        try {
            CronExpression expression = new CronExpression(text);
            expression.setTimeZone(zone);
            return expression;
        } catch (ParseException e) {
            // Quartz parsed it already when the trigger was built; unreachable in practice
            throw new IllegalArgumentException("cron expression '" + text + "' does not parse", e);
        }
    }

    private static TimeZone zone(CronTrigger cron) {
        return cron.getTimeZone() == null ? TimeZone.getDefault() : cron.getTimeZone();
    }
}
