package io.jobguard.spring;

import io.jobguard.JobOptions;

import java.lang.reflect.Method;

/**
 * Adjusts the options of each {@code @ClusterSingleton @Scheduled} method once, at startup, after
 * they were resolved from their sources: the per-job properties {@code jobguard.jobs.<name>.*}, then
 * the annotation (placeholders resolved), then the {@code jobguard.*} defaults and the engine's default
 * lease. Every bean of this type is applied, in {@code @Order}, to the options without their recovery
 * of lost fire times, which the same resolution sets and no customizer changes.
 */
@FunctionalInterface
public interface JobOptionsCustomizer {

    /**
     * Returns the options to guard the method with.
     *
     * @param options the options resolved so far
     * @param method  the guarded method (read its annotations to tell defaults from explicit values)
     * @return the options to use; {@code options} itself to keep them
     * @throws IllegalArgumentException to reject the configuration; startup fails naming the method
     */
    JobOptions customize(JobOptions options, Method method);
}
