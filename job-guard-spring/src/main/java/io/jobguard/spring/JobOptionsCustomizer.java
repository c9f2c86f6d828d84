package io.jobguard.spring;

import io.jobguard.JobOptions;

import java.lang.reflect.Method;

/**
 * Adjusts the options of each {@code @ClusterSingleton @Scheduled} method once, at startup, after
 * they were resolved from their sources: the per-job properties {@code jobguard.jobs.<name>.*}, then
 * the annotation (placeholders resolved), then the {@code jobguard.*} defaults and the engine's default
 * lease. Every bean of this type is applied, in {@code @Order}, each to the previous one's result; what
 * the last one returns is the job's only options: every firing of the method, scheduled or a direct
 * call, and the recovery of its lost fire times at startup use them.
 *
 * <p>A customizer sees the job's recovery of lost fire times ({@link JobOptions#recovery()}: misfire
 * policy, delivery, catch-up window and maximum, and the method's grid of fire times), which every job
 * with a cron or fixed-rate schedule has (by default {@code SKIP} with {@code AT_MOST_ONCE}), and may
 * change it, for example {@code options.toBuilder().recovery(options.recovery().toBuilder()
 * .misfirePolicy(MisfirePolicy.RUN_LATEST).build()).build()}. It may not remove a recovery the job has,
 * nor set one on another grid than the method's {@code @Scheduled} ({@code options.recovery().toBuilder()}
 * keeps it): after the last customizer, either fails startup naming the method and the job.
 */
@FunctionalInterface
public interface JobOptionsCustomizer {

    /**
     * Returns the options to guard the method with.
     *
     * @param options the options resolved so far, with the job's recovery of lost fire times if it has one
     * @param method  the guarded method (read its annotations to tell defaults from explicit values)
     * @return the options to use; {@code options} itself to keep them
     * @throws IllegalArgumentException to reject the configuration; startup fails naming the method
     */
    JobOptions customize(JobOptions options, Method method);
}
