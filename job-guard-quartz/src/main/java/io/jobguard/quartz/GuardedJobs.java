package io.jobguard.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.DurationParser;
import io.jobguard.GuardType;
import io.jobguard.JobOptions;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Matcher;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.GroupMatcher;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Decides whether a Quartz job is guarded and with which options: {@code JobDataMap} entries win
 * over {@code @ClusterSingleton} on the job class, which wins over the install-time defaults.
 */
final class GuardedJobs {

    private final Matcher<JobKey> guardMatcher;
    private final GuardType defaultType;
    private final Duration defaultLease;
    private final Duration defaultWaitFor;
    /** At most this many jobs are remembered: schedulers that add a job per firing (unique names) stay bounded. */
    static final int MAX_SEEN = 10_000;

    private final Map<String, JobOptions> seen = new RecentJobs();

    GuardedJobs(Matcher<JobKey> guardMatcher, GuardType defaultType, Duration defaultLease, Duration defaultWaitFor) {
        this.guardMatcher = guardMatcher;
        this.defaultType = defaultType;
        this.defaultLease = defaultLease;
        this.defaultWaitFor = defaultWaitFor;
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
     * Resolves the options of one job.
     *
     * @return the options, or null if the job is not guarded
     * @throws IllegalArgumentException naming the job and the offending entry
     */
    JobOptions resolve(JobDetail detail) {
        JobKey key = detail.getKey();
        String quartzName = key.getGroup() + "." + key.getName();
        JobDataMap data = detail.getJobDataMap();
        ClusterSingleton annotation = detail.getJobClass() == null ? null
                : detail.getJobClass().getAnnotation(ClusterSingleton.class);
        Boolean enabled = bool(data, ClusterSingletonListener.ENABLED, quartzName);
        boolean guarded = enabled != null ? enabled
                : annotation != null || (guardMatcher != null && guardMatcher.isMatch(key));
        if (!guarded) {
            return null;
        }
        String name = string(data, ClusterSingletonListener.NAME);
        if (name == null) {
            name = annotation == null || annotation.name().isBlank() ? quartzName : annotation.name();
        }
        String culprit = "Quartz job '" + quartzName + "'";
        Duration lease = duration(data, ClusterSingletonListener.LEASE, culprit);
        if (lease == null) {
            lease = annotation == null ? defaultLease
                    : DurationParser.parseOrDefault(annotation.lease(), defaultLease, "lease of " + culprit);
        }
        Duration waitFor = duration(data, ClusterSingletonListener.WAIT_FOR, culprit);
        if (waitFor == null) {
            waitFor = annotation == null ? defaultWaitFor
                    : DurationParser.parseOrDefault(annotation.waitFor(), defaultWaitFor, "waitFor of " + culprit);
        }
        GuardType type = type(data, culprit);
        if (type == null) {
            type = annotation == null ? defaultType : annotation.type();
        }
        Duration busyGrace = duration(data, ClusterSingletonListener.BUSY_GRACE, culprit);
        if (busyGrace == null && annotation != null) {
            busyGrace = DurationParser.parseOrDefault(annotation.busyGrace(), null, "busyGrace of " + culprit);
        }
        Boolean keepAlive = bool(data, ClusterSingletonListener.KEEP_ALIVE, quartzName);
        if (keepAlive == null) {
            keepAlive = annotation == null || annotation.keepAlive();
        }
        JobOptions options = JobOptions.builder(name, lease).type(type).waitFor(waitFor).keepAlive(keepAlive)
                .busyGrace(busyGrace).build();
        synchronized (seen) {
            seen.put(quartzName, options);
        }
        return options;
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

    private static String string(JobDataMap data, String key) {
        Object value = data.get(key);
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        return value.toString().trim();
    }

    private static Boolean bool(JobDataMap data, String key, String quartzName) {
        Object value = data.get(key);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        String text = value.toString().trim().toLowerCase(Locale.ROOT);
        if (text.equals("true") || text.equals("false")) {
            return Boolean.valueOf(text);
        }
        throw new IllegalArgumentException("JobDataMap entry " + key + " of Quartz job '" + quartzName
                + "' must be true or false, got '" + value + "'");
    }

    private static Duration duration(JobDataMap data, String key, String culprit) {
        Object value = data.get(key);
        if (value == null) {
            return null;
        }
        if (value instanceof Duration d) {
            return d;
        }
        if (value instanceof Number n) {
            return Duration.ofMillis(n.longValue());
        }
        return DurationParser.parse(value.toString(), "JobDataMap entry " + key + " of " + culprit);
    }

    private static GuardType type(JobDataMap data, String culprit) {
        Object value = data.get(ClusterSingletonListener.TYPE);
        if (value == null || value instanceof GuardType) {
            return (GuardType) value;
        }
        try {
            return GuardType.valueOf(value.toString().trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("JobDataMap entry " + ClusterSingletonListener.TYPE + " of " + culprit
                    + " must be RETURN or WAIT, got '" + value + "'", e);
        }
    }
}
