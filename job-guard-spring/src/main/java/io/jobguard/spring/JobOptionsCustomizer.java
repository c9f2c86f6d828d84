package io.jobguard.spring;

import io.jobguard.JobOptions;

import java.lang.reflect.Method;

/**
 * Adjusts the options of each {@code @ClusterSingleton @Scheduled} method once, at startup, after
 * they were read from the annotation (placeholders resolved, the engine's default lease applied).
 * Every bean of this type is applied, in {@code @Order}. The Spring Boot auto-configuration
 * contributes one that applies {@code jobguard.default-wait-for}, {@code jobguard.busy-grace},
 * {@code jobguard.keep-alive} and the per-job overrides under {@code jobguard.jobs.<name>.*}.
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
