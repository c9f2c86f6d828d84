/**
 * job-guard for Spring: put {@link io.jobguard.ClusterSingleton @ClusterSingleton} next to
 * {@code @Scheduled} and each nominal fire time runs on at most one node of the cluster. Spring
 * Boot applications are configured automatically; plain Spring applications use
 * {@link io.jobguard.spring.EnableJobGuard @EnableJobGuard} with a {@link io.jobguard.JobGuard} bean.
 */
package io.jobguard.spring;
