/**
 * job-guard's API: the engine {@link io.jobguard.JobGuard} (made by {@link io.jobguard.JobGuard#create}) guards a
 * scheduled job so that each of its fire times runs on at most one node of a cluster, whatever the clock skew below
 * the configured tolerance. One firing is one {@link io.jobguard.JobGuard#fire} call: an admission, then the
 * {@link io.jobguard.FiringBody} with its {@link io.jobguard.FiringEnd}, then exactly one
 * {@link io.jobguard.RunOutcome} on this node. A job's settings are {@link io.jobguard.JobOptions} (with its
 * {@link io.jobguard.RecoveryOptions}), declared with {@link io.jobguard.ClusterSingleton} by the Spring and Quartz
 * adapters; the engine's are {@link io.jobguard.JobGuardConfig}. A store failure is an outcome
 * ({@code STORE_ERROR}), never an exception to the scheduler. The words fire time, firing, run, lease, permit and
 * outcome are defined in docs/architecture.md's glossary.
 */
package io.jobguard;
