/**
 * The {@code @ClusterSingleton} firing path for Spring beans, internal to job-guard-spring:
 * validation of guarded methods at startup and their registry ({@link io.jobguard.spring.firing.GuardedJob},
 * {@link io.jobguard.spring.firing.ScheduleSpec}); the scheduler decorator that gives every {@code @Scheduled}
 * firing of a guarded method its nominal fire time from the trigger that designated it, and the startup check that
 * every guarded schedule goes through it; {@code FireTimeHandOff}, which carries that fire time from the
 * decorator to the advice; the advice, the one owner of a firing on the Spring side (one {@code JobGuard.fire} call
 * per firing, scheduled or a direct call with a fire time of its own); and the recovery of lost fire times
 * ({@link io.jobguard.spring.firing.MissedFireTimeRecoveryStarter}).
 *
 * <ul>
 *   <li>Startup: {@link io.jobguard.spring.firing.FiringConfiguration} holds the beans around
 *       {@link io.jobguard.spring.firing.ClusterSingletonPostProcessor}, which finds, validates and proxies the
 *       guarded methods; {@code GuardableMethods} refuses a {@code @ClusterSingleton} the proxy could not honour;
 *       {@code GuardedMethodResolver} turns one method into a {@link io.jobguard.spring.firing.GuardedJob} with its
 *       {@link io.jobguard.spring.firing.ScheduleSpec}, kept in the {@link io.jobguard.spring.firing.GuardedJobRegistry};
 *       {@code GuardInPathCheck} refuses a guarded schedule that bypasses job-guard's scheduler, or warns, as the
 *       {@link io.jobguard.spring.firing.SchedulerBypass} bean says;
 *       {@link io.jobguard.spring.firing.ScheduledJobsDeclaration} declares the guarded jobs to the engine for the
 *       fleet spread.</li>
 *   <li>Fire times: {@code NominalFireTimeConfigurer} wraps the {@code @Scheduled} registrar's scheduler in a
 *       {@code NominalTimeTaskScheduler}, which schedules each guarded task with a {@code FireTimeTrigger} naming
 *       each nominal fire time and runs it as a {@code GuardedFiring}; {@code FireTimeHandOff} carries the time to
 *       the advice.</li>
 *   <li>The firing: {@code ClusterSingletonInterceptor} guards one call, the one owner of a firing on the Spring
 *       side; {@code AsyncRuns} and {@code SuspendingRuns} hold the lease until the work of an asynchronous method or
 *       a Kotlin suspend function ends; {@code RecoveryBodies} are the recovery runs of a guarded method.</li>
 *   <li>Native builds: {@code ClusterSingletonRuntimeHints} registers the annotation's attributes for Spring AOT.</li>
 * </ul>
 *
 * <p>Not an API: its public types are public only for job-guard-spring's other packages ({@code @EnableJobGuard},
 * the Boot auto-configuration, the actuator endpoint) and may change in any release.
 */
package io.jobguard.spring.firing;
