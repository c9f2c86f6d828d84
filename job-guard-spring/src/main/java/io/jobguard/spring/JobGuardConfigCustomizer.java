package io.jobguard.spring;

import io.jobguard.JobGuardConfig;

/**
 * Adjusts the engine configuration built from the {@code jobguard.*} properties before the
 * auto-configured {@link io.jobguard.JobGuard} is created (for example to set a {@code Clock} or
 * a setting that has no property). Every bean of this type is applied, in {@code @Order}.
 */
@FunctionalInterface
public interface JobGuardConfigCustomizer {

    /**
     * Customizes the configuration.
     *
     * @param builder a builder holding the values from the properties
     */
    void customize(JobGuardConfig.Builder builder);
}
