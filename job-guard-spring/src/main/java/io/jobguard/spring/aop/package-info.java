/**
 * The {@code @ClusterSingleton} guard for Spring beans: validation of guarded methods at startup,
 * {@link io.jobguard.spring.aop.ScheduledFireTimes} that carries each scheduled firing's nominal fire
 * time from the scheduler decorator to the advice, and the advice, the one owner of a firing on the
 * Spring side: one {@code JobGuard.fire} call per firing (scheduled, or a direct call with a fire time
 * of its own). Public: the post-processor, for {@code @EnableJobGuard} to register, and
 * {@code ScheduledFireTimes}, for the scheduler decorator to attach fire times with.
 */
package io.jobguard.spring.aop;
