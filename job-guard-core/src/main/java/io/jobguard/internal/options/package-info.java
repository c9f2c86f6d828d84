/**
 * The one resolution of a guarded job's options, shared by the Spring and Quartz adapters: a job's
 * per-job settings, its {@link io.jobguard.ClusterSingleton @ClusterSingleton} and the global defaults
 * go in, in that order of precedence, and {@link io.jobguard.JobOptions} with its
 * {@link io.jobguard.RecoveryOptions} come out ({@link io.jobguard.internal.options.JobOptionsResolver}).
 * Every value is parsed here once ({@link io.jobguard.internal.options.OptionValues}), so both adapters
 * accept the same values and refuse the same invalid ones with the same message, naming the job and
 * the attribute. No other class reads the annotation's attributes.
 *
 * <p>The keys are the {@link io.jobguard.internal.options.JobAttribute} constants, one per attribute of
 * {@code @ClusterSingleton}; each {@link io.jobguard.internal.options.OptionSource} (per-job properties, a
 * {@code JobDataMap}, the global defaults) answers the value it sets for an attribute and how a message names where it
 * came from; {@link io.jobguard.internal.options.OptionSources} are a framework's sources besides the annotation: each
 * job's own settings and the global defaults.
 */
package io.jobguard.internal.options;
