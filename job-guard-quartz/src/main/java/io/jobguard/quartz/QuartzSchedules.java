package io.jobguard.quartz;

import io.jobguard.JobOptions;
import org.quartz.CalendarIntervalTrigger;
import org.quartz.CronTrigger;
import org.quartz.DailyTimeIntervalTrigger;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The schedules of the Quartz jobs a {@link ClusterSingletonListener} guards, as text that is equal on
 * two nodes exactly when their triggers produce the same fire times. The text is the cron expression and zone, or
 * the repeat interval and start time. Feed {@link #of(Scheduler, ClusterSingletonListener)} to an
 * {@link io.jobguard.monitor.ScheduleAgreementMonitor} to be warned when nodes disagree, for example when each
 * node starts a simple trigger "now":
 * <pre>{@code
 * new ScheduleAgreementMonitor(guard, () -> QuartzSchedules.of(scheduler, listener), Duration.ofMinutes(1)).start();
 * }</pre>
 */
public final class QuartzSchedules {

    private QuartzSchedules() {
    }

    /**
     * The schedule of every guarded job of a scheduler: its triggers' descriptions, sorted and joined
     * with {@code "; "}. Jobs without triggers are left out; a scheduler that cannot be read gives none.
     *
     * @param scheduler the scheduler the listener is installed on
     * @param listener  the listener, which knows the guarded jobs and their job-guard names
     * @return job-guard job name to schedule
     */
    public static Map<String, String> of(Scheduler scheduler, ClusterSingletonListener listener) {
        Map<String, String> schedules = new TreeMap<>();
        try {
            for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
                JobDetail detail = scheduler.getJobDetail(key);
                JobOptions options = detail == null ? null : listener.optionsOf(detail).orElse(null);
                String schedule = options == null ? null : of(scheduleTriggers(scheduler, key));
                if (schedule != null) {
                    schedules.put(options.name(), schedule);
                }
            }
        } catch (SchedulerException e) {
            // a scheduler that is shut down or whose store fails has nothing to compare
            return Map.of();
        }
        return schedules;
    }

    /**
     * The triggers that make a job's schedule: all of the job's triggers but job-guard's own recovery-pass trigger
     * (group {@code jobguard-recovery}), whose firings are no fire times of the job and whose time differs per node.
     *
     * @param scheduler the scheduler
     * @param job       the job
     * @return its schedule's triggers, empty when it has none or does not exist
     * @throws SchedulerException if the scheduler cannot be read
     */
    public static List<Trigger> scheduleTriggers(Scheduler scheduler, JobKey job) throws SchedulerException {
        return scheduler.getTriggersOfJob(job).stream().filter(t -> !QuartzRecoveryPass.isPass(t))
                .map(Trigger.class::cast).toList();
    }

    /**
     * The schedule of one job given its triggers, leaving job-guard's recovery-pass trigger out (see
     * {@link #scheduleTriggers}).
     *
     * @param triggers the job's triggers
     * @return their descriptions, sorted and joined with {@code "; "}, or null when there are none
     */
    public static String of(List<? extends Trigger> triggers) {
        List<String> described = triggers.stream().filter(t -> !QuartzRecoveryPass.isPass(t))
                .map(QuartzSchedules::describe).sorted().toList();
        return described.isEmpty() ? null : String.join("; ", described);
    }

    /**
     * One trigger's schedule.
     *
     * @param trigger the trigger
     * @return for example {@code cron "0 0 2 * * ?" Europe/Berlin} or {@code every PT10S from 2026-11-22T10:00:00Z}
     */
    public static String describe(Trigger trigger) {
        if (trigger instanceof CronTrigger cron) {
            return "cron \"" + cron.getCronExpression() + "\" " + cron.getTimeZone().getID();
        }
        // the other kinds count from their start time, so nodes agree only if they start alike
        String from = trigger.getStartTime() == null ? "" : " from " + trigger.getStartTime().toInstant();
        if (trigger instanceof SimpleTrigger simple) {
            return "every " + Duration.ofMillis(simple.getRepeatInterval()) + from
                    + (simple.getRepeatCount() == SimpleTrigger.REPEAT_INDEFINITELY ? ""
                    : " (" + simple.getRepeatCount() + " repeats)");
        }
        if (trigger instanceof CalendarIntervalTrigger calendar) {
            return "every " + calendar.getRepeatInterval() + " " + calendar.getRepeatIntervalUnit() + from + " "
                    + calendar.getTimeZone().getID();
        }
        if (trigger instanceof DailyTimeIntervalTrigger daily) {
            return "every " + daily.getRepeatInterval() + " " + daily.getRepeatIntervalUnit() + " from "
                    + daily.getStartTimeOfDay() + " to " + daily.getEndTimeOfDay() + " on days " + daily.getDaysOfWeek()
                    + from;
        }
        return trigger.getClass().getSimpleName() + from;
    }
}
