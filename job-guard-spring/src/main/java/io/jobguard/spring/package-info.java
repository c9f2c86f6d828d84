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
 * {@code @EnableJobGuard} registers; the firing path itself is in {@code io.jobguard.spring.firing}:
 * {@code JobGuardInfrastructure} (the post-processor and the rest of the firing path), {@code StartupReport} (one INFO
 * line at startup saying what is guarded), and the shutdown steps that run before the application's Redis connection
 * factory stops ({@code StopsBeforeRedis}): {@code LeaseHandOverOnShutdown} waits for the running guarded runs and
 * gives up the leases of those still running, then {@code RedisClientsCloser} closes job-guard's Redis clients.
 */
package io.jobguard.spring;
