package io.jobguard.internal.options;

import io.jobguard.JobGuardConfig;

import java.time.Duration;
import java.util.Objects;

/**
 * The sources of a framework's jobs besides their annotation: each job's own settings and the global
 * defaults (Spring Boot's {@code jobguard.jobs.<name>.*} and {@code jobguard.*}).
 *
 * @param own      each job's own settings, looked up by the job's resolved name
 * @param defaults the global defaults
 */
public record OptionSources(OptionSource own, OptionSource defaults) {

    /** No settings besides the annotation. */
    public static final OptionSources NONE = new OptionSources(OptionSource.NONE, OptionSource.NONE);

    /** Checks both sources are given. */
    public OptionSources {
        Objects.requireNonNull(own, "own");
        Objects.requireNonNull(defaults, "defaults");
    }

    /**
     * The defaults of every job on a node, the last source of a resolution: what {@code configured} sets (Spring
     * Boot's {@code jobguard.*}, the Quartz listener's install-time defaults and a trigger's misfire instruction),
     * else the node's engine default, {@link JobGuardConfig#defaultLease()} for the lease. So every resolution
     * finds a lease ({@link JobOptionsResolver.Sources#defaults()} must set one), and Spring and Quartz fall back
     * on the same engine setting in the same way. A message names where a value came from by {@code configured}'s
     * label, also for the engine's lease.
     *
     * @param configured the framework's configured defaults ({@link OptionSource#NONE} for none)
     * @param config     the configuration of the node's engine
     * @return the defaults source
     */
    public static OptionSource nodeDefaults(OptionSource configured, JobGuardConfig config) {
        return new NodeDefaults(Objects.requireNonNull(configured, "configured"),
                Objects.requireNonNull(config, "config").defaultLease());
    }

    /** {@link #nodeDefaults}: the configured value, else the engine's default lease. */
    private record NodeDefaults(OptionSource configured, Duration defaultLease) implements OptionSource {
        @Override
        public Object value(JobAttribute attribute, String job) {
            Object value = configured.value(attribute, job);
            boolean unset = value == null || value instanceof String s && s.isBlank();
            return unset && attribute == JobAttribute.LEASE ? defaultLease : value;
        }

        @Override
        public String label(JobAttribute attribute, String job) {
            return configured.label(attribute, job);
        }
    }
}
