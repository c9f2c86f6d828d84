/**
 * The {@code @ClusterSingleton} advice for Spring beans: validation of guarded methods at startup
 * and the interceptor that admits each call through the engine. Only the post-processor is public,
 * for {@code @EnableJobGuard} to register.
 */
package io.jobguard.spring.aop;
