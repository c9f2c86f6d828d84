/**
 * The {@code @ClusterSingleton} guard for Spring beans: validation of guarded methods at startup,
 * {@link io.jobguard.spring.aop.GuardedFirings} that admits each scheduled firing for the fire time
 * it carries, and the advice that runs the method under that firing's permit (or, for a direct
 * call, admits the call itself). Public: the post-processor, for {@code @EnableJobGuard} to
 * register, and {@code GuardedFirings}, for the scheduler decorator to call.
 */
package io.jobguard.spring.aop;
