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
 * <p>Not an API: its public types are public only for job-guard-spring's other packages ({@code @EnableJobGuard},
 * the Boot auto-configuration, the actuator endpoint) and may change in any release.
 */
package io.jobguard.spring.firing;
