package io.jobguard.spring.boot;

import io.jobguard.internal.options.JobAttribute;
import io.jobguard.internal.options.OptionSource;
import io.jobguard.internal.options.OptionSources;

/**
 * The {@code jobguard.*} properties as sources of each {@code @ClusterSingleton @Scheduled} job's options, read
 * only through the bound {@link JobGuardProperties}: {@code jobguard.jobs.<name>.*} is the job's own source (it
 * beats the annotation), {@code jobguard.default-wait-for}, {@code jobguard.busy-grace}, {@code jobguard.keep-alive},
 * {@code jobguard.misfire-policy}, {@code jobguard.delivery}, {@code jobguard.catch-up-window} and
 * {@code jobguard.catch-up-max} are the defaults (the annotation beats them); the default lease is the engine's.
 */
final class JobGuardPropertiesSources {

    private JobGuardPropertiesSources() {
    }

    /**
     * The sources over the bound properties.
     *
     * @param properties the properties
     * @return the per-job and the default sources
     */
    static OptionSources of(JobGuardProperties properties) {
        return new OptionSources(new PerJob(properties), new Defaults(properties));
    }

    /** {@code jobguard.jobs.<name>.*}. */
    private record PerJob(JobGuardProperties properties) implements OptionSource {
        @Override
        public Object value(JobAttribute attribute, String job) {
            JobOverrideProperties own = job == null ? null : properties.jobs().get(job);
            if (own == null) {
                return null;
            }
            return switch (attribute) {
                case NAME -> null;
                case TYPE -> own.type();
                case LEASE -> own.lease();
                case WAIT_FOR -> own.waitFor();
                case BUSY_GRACE -> own.busyGrace();
                case KEEP_ALIVE -> own.keepAlive();
                case MISFIRE_POLICY -> own.misfirePolicy();
                case DELIVERY -> own.delivery();
                case CATCH_UP_WINDOW -> own.catchUpWindow();
                case CATCH_UP_MAX -> own.catchUpMax();
                case ATTEMPTS -> own.attempts();
                case RETRY_BACKOFF -> own.retryBackoff();
                case RETRY_MULTIPLIER -> own.retryMultiplier();
                case RETRY_MAX_BACKOFF -> own.retryMaxBackoff();
                case RETRY_JITTER -> own.retryJitter();
                case RETRY_ON -> own.retryOn();
                case NO_RETRY_ON -> own.noRetryOn();
                case HISTORY_SIZE -> own.historySize();
                case HISTORY_RETENTION -> own.historyRetention();
            };
        }

        @Override
        public String label(JobAttribute attribute, String job) {
            return "jobguard.jobs." + job + "." + attribute.kebab();
        }
    }

    /** The {@code jobguard.*} defaults of every job. */
    private record Defaults(JobGuardProperties properties) implements OptionSource {
        @Override
        public Object value(JobAttribute attribute, String job) {
            return switch (attribute) {
                case NAME, TYPE, LEASE, ATTEMPTS, RETRY_BACKOFF, RETRY_MULTIPLIER, RETRY_MAX_BACKOFF, RETRY_JITTER,
                        RETRY_ON, NO_RETRY_ON, HISTORY_SIZE, HISTORY_RETENTION -> null;
                case WAIT_FOR -> properties.defaultWaitFor();
                case BUSY_GRACE -> properties.busyGrace();
                case KEEP_ALIVE -> properties.keepAlive();
                case MISFIRE_POLICY -> properties.misfirePolicy();
                case DELIVERY -> properties.delivery();
                case CATCH_UP_WINDOW -> properties.catchUpWindow();
                case CATCH_UP_MAX -> properties.catchUpMax();
            };
        }

        @Override
        public String label(JobAttribute attribute, String job) {
            return switch (attribute) {
                case WAIT_FOR -> "jobguard.default-wait-for";
                case LEASE -> "jobguard.default-lease";
                default -> "jobguard." + attribute.kebab();
            };
        }
    }
}
