/**
 * Spring Boot test support of job-guard's test kit: {@link io.jobguard.test.spring.AutoConfigureJobGuardTest} puts a
 * simulated store and a manual scheduler ({@code ManualTaskScheduler}) in place of Redis and the application's
 * scheduler ({@link io.jobguard.test.spring.JobGuardTestAutoConfiguration}), and
 * {@link io.jobguard.test.spring.GuardedJobs} fires {@code @ClusterSingleton} methods for chosen fire times.
 */
package io.jobguard.test.spring;
