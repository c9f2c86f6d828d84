package io.jobguard.quartz;

import io.jobguard.FireTimeSchedule;
import io.jobguard.MisfirePolicy;
import org.quartz.CronExpression;
import org.quartz.CronTrigger;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;

import java.util.Date;

/**
 * What a Quartz trigger adds to a job's recovery of lost fire times, whose options {@link QuartzJobOptions}
 * resolves: the trigger is the schedule, and the trigger's own misfire instruction is the job's misfire
 * policy when neither its {@code JobDataMap} nor {@code @ClusterSingleton} sets one, where the meaning is the same:
 * {@code IGNORE_MISFIRE_POLICY} = RUN_ALL, cron {@code FIRE_ONCE_NOW} and simple {@code FIRE_NOW} =
 * RUN_LATEST, cron {@code DO_NOTHING} and simple {@code RESCHEDULE_NEXT_WITH_*} = SKIP (the smart
 * policy and simple {@code RESCHEDULE_NOW_WITH_*} map to nothing). The trigger is the schedule.
 */
final class QuartzRecovery {

    private QuartzRecovery() {
    }

    /**
     * The trigger's grid. A cron trigger's own {@code getFireTimeAfter} starts at the trigger's start
     * time, which a node sets when it (re)schedules the job: the fire times before the node started
     * would be invisible, so its cron expression is used instead.
     */
    static FireTimeSchedule schedule(Trigger trigger) {
        if (trigger instanceof CronTrigger cron && cron.getCronExpression() != null) {
            CronExpression expression = CronFireTimeSnap.expression(cron);
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
}
