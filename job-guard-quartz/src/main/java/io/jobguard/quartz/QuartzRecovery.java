package io.jobguard.quartz;

import io.jobguard.Delivery;
import io.jobguard.DurationParser;
import io.jobguard.FireTimeSchedule;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.internal.Counts;
import io.jobguard.internal.TimeBounds;
import org.quartz.CronExpression;
import org.quartz.CronTrigger;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;

import java.text.ParseException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

/**
 * A Quartz job's recovery of lost fire times: from its {@code JobDataMap}
 * ({@link ClusterSingletonListener#MISFIRE_POLICY}, {@link ClusterSingletonListener#DELIVERY},
 * {@link ClusterSingletonListener#CATCH_UP_WINDOW}, {@link ClusterSingletonListener#CATCH_UP_MAX}),
 * else the misfire policy from the trigger's own misfire instruction where the meaning is the same:
 * {@code IGNORE_MISFIRE_POLICY} = RUN_ALL, cron {@code FIRE_ONCE_NOW} and simple {@code FIRE_NOW} =
 * RUN_LATEST, cron {@code DO_NOTHING} and simple {@code RESCHEDULE_NEXT_WITH_*} = SKIP (the smart
 * policy and simple {@code RESCHEDULE_NOW_WITH_*} map to nothing). The trigger is the schedule.
 */
final class QuartzRecovery {

    private QuartzRecovery() {
    }

    /** The options, or null when neither a misfire policy nor a delivery applies to the job. */
    static RecoveryOptions resolve(JobDataMap data, Trigger trigger, String job) {
        MisfirePolicy policy = parse(MisfirePolicy.class, data.get(ClusterSingletonListener.MISFIRE_POLICY), job,
                ClusterSingletonListener.MISFIRE_POLICY);
        if (policy == null) {
            policy = fromTrigger(trigger);
        }
        Delivery delivery = parse(Delivery.class, data.get(ClusterSingletonListener.DELIVERY), job,
                ClusterSingletonListener.DELIVERY);
        if (policy == null && delivery == null) {
            return null;
        }
        Object window = data.get(ClusterSingletonListener.CATCH_UP_WINDOW);
        Duration catchUpWindow = window == null ? null : DurationParser.parse(window.toString(),
                ClusterSingletonListener.CATCH_UP_WINDOW + " of Quartz job '" + job + "'");
        if (catchUpWindow != null) {
            TimeBounds.catchUpWindow(catchUpWindow, ClusterSingletonListener.CATCH_UP_WINDOW + " of Quartz job '"
                    + job + "'");
        }
        Object max = data.get(ClusterSingletonListener.CATCH_UP_MAX);
        int catchUpMax;
        try {
            catchUpMax = max == null ? RecoveryOptions.DEFAULT_CATCH_UP_MAX : Integer.parseInt(max.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ClusterSingletonListener.CATCH_UP_MAX + " of Quartz job '" + job
                    + "' is \"" + max + "\", not a number", e);
        }
        Counts.catchUpMax(catchUpMax, ClusterSingletonListener.CATCH_UP_MAX + " of Quartz job '" + job + "'");
        FireTimeSchedule schedule = schedule(trigger);
        return RecoveryOptions.builder().misfirePolicy(policy).catchUpWindow(catchUpWindow).catchUpMax(catchUpMax)
                .delivery(delivery).schedule(schedule).build();
    }

    /**
     * The trigger's grid. A cron trigger's own {@code getFireTimeAfter} starts at the trigger's start
     * time, which a node sets when it (re)schedules the job: the fire times before the node started
     * would be invisible, so its cron expression is used instead.
     */
    static FireTimeSchedule schedule(Trigger trigger) {
        if (trigger instanceof CronTrigger cron && cron.getCronExpression() != null) {
            CronExpression expression;
            try {
                expression = new CronExpression(cron.getCronExpression());
            } catch (ParseException e) {
                throw new IllegalArgumentException("cron expression '" + cron.getCronExpression() + "' does not parse", e);
            }
            expression.setTimeZone(cron.getTimeZone() == null ? TimeZone.getDefault() : cron.getTimeZone());
            return after -> {
                Date next = expression.getNextValidTimeAfter(Date.from(after));
                return next == null ? null : next.toInstant();
            };
        }
        return after -> {
            Date next = trigger.getFireTimeAfter(Date.from(after));
            return next == null ? null : next.toInstant();
        };
    }

    static MisfirePolicy fromTrigger(Trigger trigger) {
        int instruction = trigger.getMisfireInstruction();
        if (instruction == Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY) {
            return MisfirePolicy.RUN_ALL;
        }
        if (trigger instanceof CronTrigger) {
            return instruction == CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW ? MisfirePolicy.RUN_LATEST
                    : instruction == CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING ? MisfirePolicy.SKIP : null;
        }
        if (trigger instanceof SimpleTrigger) {
            return switch (instruction) {
                case SimpleTrigger.MISFIRE_INSTRUCTION_FIRE_NOW -> MisfirePolicy.RUN_LATEST;
                case SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_EXISTING_COUNT,
                     SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT -> MisfirePolicy.SKIP;
                default -> null;
            };
        }
        return null;
    }

    /** The job itself, run for a catch-up or a retry ({@code RunContext.current()} names the fire time). */
    static Runnable body(JobExecutionContext context) {
        return () -> {
            try {
                context.getJobInstance().execute(context);
            } catch (JobExecutionException e) {
                throw new IllegalStateException("Quartz job " + context.getJobDetail().getKey() + " failed", e);
            }
        };
    }

    private static <E extends Enum<E>> E parse(Class<E> type, Object value, String job, String key) {
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.toString().trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " of Quartz job '" + job + "' is \"" + value + "\", not one of "
                    + Arrays.toString(type.getEnumConstants()), e);
        }
    }
}
