package io.jobguard.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.internal.options.JobAttribute;
import io.jobguard.internal.options.JobOptionsResolver;
import io.jobguard.internal.options.OptionSource;
import io.jobguard.internal.options.OptionSources;
import io.jobguard.internal.options.OptionValues;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Matcher;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether a Quartz job is guarded and with which options, through the one resolution shared with
 * Spring ({@link JobOptionsResolver}): {@code JobDataMap} entries {@code jobguard.<attribute>} win over
 * {@code @ClusterSingleton} on the job class (every attribute of it), which wins over the install-time
 * defaults and, for the misfire policy, the trigger's misfire instruction, then the engine's default lease
 * (core's node defaults, as for Spring: {@link OptionSources#nodeDefaults}).
 */
final class QuartzJobOptions {

    private final Matcher<JobKey> guardMatcher;
    private final GuardType defaultType;
    private final Duration defaultLease;
    private final Duration defaultWaitFor;
    private final JobGuardConfig engine;
    /** At most this many jobs are remembered: schedulers that add a job per firing (unique names) stay bounded. */
    static final int MAX_SEEN = 10_000;

    private final Map<String, JobOptions> seen = new RecentJobs();

    /**
     * @param guardMatcher   the jobs guarded without annotation or {@code JobDataMap} entry, or null
     * @param defaultType    the listener's default type, or null
     * @param defaultLease   the listener's default lease, or null for the engine's
     * @param defaultWaitFor the listener's default wait, or null
     * @param engine         the configuration of the node's engine, whose default lease is the last default
     */
    QuartzJobOptions(Matcher<JobKey> guardMatcher, GuardType defaultType, Duration defaultLease, Duration defaultWaitFor,
                     JobGuardConfig engine) {
        this.guardMatcher = guardMatcher;
        this.defaultType = defaultType;
        this.defaultLease = defaultLease;
        this.defaultWaitFor = defaultWaitFor;
        this.engine = Objects.requireNonNull(engine, "engine");
    }

    /**
     * Resolves the options of every job the scheduler has now, so that invalid entries fail the install.
     *
     * @param scheduler the scheduler
     * @throws IllegalArgumentException naming the job and the offending entry
     * @throws SchedulerException       if the scheduler cannot list its jobs
     */
    void resolveAll(Scheduler scheduler) throws SchedulerException {
        for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
            JobDetail detail = scheduler.getJobDetail(key);
            if (detail != null) {
                resolve(detail);
            }
        }
    }

    /**
     * Resolves the options of one job, without its recovery of lost fire times (which depends on the trigger).
     *
     * @return the options, or null if the job is not guarded
     * @throws IllegalArgumentException naming the job and the offending entry or attribute
     */
    JobOptions resolve(JobDetail detail) {
        JobOptions options = resolve(detail, null, detail.getJobDataMap());
        return options == null || options.recovery() == null ? options : options.toBuilder().recovery(null).build();
    }

    /**
     * Resolves the options a firing of one of the job's triggers is guarded with: with the job's recovery of
     * lost fire times on the trigger's grid, when a misfire policy or a delivery is set (by the recovery entries
     * of the merged {@code JobDataMap}, by {@code @ClusterSingleton}, or, for the misfire policy, by the
     * trigger's misfire instruction; see {@link QuartzRecovery#fromTrigger}), or by default (the accounting rule,
     * {@link JobOptionsResolver}).
     *
     * @param detail  the job
     * @param trigger the trigger
     * @param merged  the job's and the trigger's {@code JobDataMap}, the trigger's entries winning
     * @return the options, or null if the job is not guarded
     * @throws IllegalArgumentException naming the job and the offending entry or attribute
     */
    JobOptions firingOptions(JobDetail detail, Trigger trigger, JobDataMap merged) {
        return resolve(detail, Objects.requireNonNull(trigger, "trigger"), merged);
    }

    private JobOptions resolve(JobDetail detail, Trigger trigger, JobDataMap merged) {
        JobKey key = detail.getKey();
        String quartzName = key.getGroup() + "." + key.getName();
        JobDataMap data = detail.getJobDataMap();
        ClusterSingleton annotation = detail.getJobClass() == null ? null
                : detail.getJobClass().getAnnotation(ClusterSingleton.class);
        Boolean enabled = OptionValues.bool(data.get(ClusterSingletonListener.ENABLED),
                "JobDataMap entry " + ClusterSingletonListener.ENABLED + " of Quartz job '" + quartzName + "'");
        boolean guarded = enabled != null ? enabled
                : annotation != null || (guardMatcher != null && guardMatcher.isMatch(key));
        if (!guarded) {
            return null;
        }
        OptionSource entries = new JobDataMapSource(data, merged);
        OptionSource defaults = OptionSources.nodeDefaults(new ListenerDefaults(defaultType, defaultLease,
                defaultWaitFor, trigger), engine);
        JobOptions options = JobOptionsResolver.resolve(new JobOptionsResolver.Sources(quartzName, entries, annotation,
                null, defaults, Duration.ZERO, trigger == null ? null : QuartzRecovery.schedule(trigger)));
        JobOptions remembered = options.recovery() == null ? options : options.toBuilder().recovery(null).build();
        synchronized (seen) {
            seen.put(quartzName, remembered);
        }
        return options;
    }

    /**
     * The listener's install-time defaults ({@code type}, {@code lease}, {@code waitFor}, each null when not set)
     * and, for the misfire policy, the trigger's misfire instruction ({@link QuartzRecovery#fromTrigger}); the
     * engine's default lease comes after them ({@link OptionSources#nodeDefaults}).
     *
     * @param trigger the trigger whose firing is resolved, or null when the job is resolved without one
     */
    private record ListenerDefaults(GuardType type, Duration lease, Duration waitFor, Trigger trigger)
            implements OptionSource {
        @Override
        public Object value(JobAttribute attribute, String job) {
            return switch (attribute) {
                case TYPE -> type;
                case LEASE -> lease;
                case WAIT_FOR -> waitFor;
                case MISFIRE_POLICY -> trigger == null ? null : QuartzRecovery.fromTrigger(trigger);
                default -> null;
            };
        }

        @Override
        public String label(JobAttribute attribute, String job) {
            return attribute == JobAttribute.MISFIRE_POLICY && trigger != null
                    ? "the misfire instruction of trigger " + trigger.getKey()
                    : "the listener's default " + attribute.element();
        }
    }

    /**
     * A job's {@code JobDataMap} entries {@code jobguard.<attribute>}: the recovery attributes from the merged
     * map (a trigger may set its own), the others from the job's.
     */
    private record JobDataMapSource(JobDataMap job, JobDataMap merged) implements OptionSource {
        @Override
        public Object value(JobAttribute attribute, String name) {
            return (attribute.recovery() ? merged : job).get(key(attribute));
        }

        @Override
        public String label(JobAttribute attribute, String name) {
            return "JobDataMap entry " + key(attribute);
        }

        static String key(JobAttribute attribute) {
            return "jobguard." + attribute.element();
        }
    }

    /**
     * After {@link #resolve} failed: whether the job asked for guarding (then its firing is vetoed).
     * Never throws.
     */
    boolean probablyGuarded(JobDetail detail) {
        try {
            Object enabled = detail.getJobDataMap().get(ClusterSingletonListener.ENABLED);
            if (enabled != null) {
                return !"false".equalsIgnoreCase(enabled.toString().trim());
            }
            if (detail.getJobClass() != null && detail.getJobClass().isAnnotationPresent(ClusterSingleton.class)) {
                return true;
            }
            for (String key : detail.getJobDataMap().getKeys()) {
                if (key.startsWith("jobguard.")) {
                    return true;
                }
            }
            return guardMatcher != null && guardMatcher.isMatch(detail.getKey());
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** The guarded jobs resolved so far, by Quartz job key ({@code group.name}). */
    Map<String, JobOptions> seen() {
        synchronized (seen) {
            return Map.copyOf(seen);
        }
    }

    /** The most recently resolved jobs, oldest dropped beyond {@link #MAX_SEEN}; guarded by its own lock. */
    private static final class RecentJobs extends LinkedHashMap<String, JobOptions> {
        private static final long serialVersionUID = 1L;

        RecentJobs() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JobOptions> eldest) {
            return size() > MAX_SEEN;
        }
    }
}
