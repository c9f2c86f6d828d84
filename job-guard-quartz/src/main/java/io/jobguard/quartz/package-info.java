/**
 * job-guard for Quartz: {@link io.jobguard.quartz.ClusterSingletonListener} makes each node's own
 * Quartz scheduler (a {@code RAMJobStore} is enough) run every nominal fire time of a guarded job on
 * one node of the cluster, with no overlapping runs, coordinated through the job-guard store.
 */
package io.jobguard.quartz;
