/**
 * job-guard for Spring: put {@link io.jobguard.ClusterSingleton @ClusterSingleton} next to
 * {@code @Scheduled} and each nominal fire time runs on at most one node of the cluster. Spring
 * Boot applications are configured automatically; plain Spring applications use
 * {@link io.jobguard.spring.EnableJobGuard @EnableJobGuard} with a {@link io.jobguard.JobGuard} bean.
 *
 * <p>The package's public types are the Spring API: {@code @EnableJobGuard}, the customizers an
 * application defines as beans ({@link io.jobguard.spring.JobOptionsCustomizer},
 * {@link io.jobguard.spring.JobGuardConfigCustomizer}) and the
 * {@link io.jobguard.spring.GuardedJobsContributor} SPI. Its package-private classes are the beans
 * {@code @EnableJobGuard} registers; the firing path itself is in {@code io.jobguard.spring.firing}.
 */
package io.jobguard.spring;
