/**
 * Spring Boot 3.5 adapters: the {@code jobguard} health indicator and the Lettuce reconnect backoff, through Boot
 * 3.5's types. Everything else job-guard offers a Boot 3.5 application comes from {@code job-guard-spring}, which
 * is the same artifact on both Boot lines; these classes hold no logic of their own beyond the adaptation
 * ({@link io.jobguard.spring.actuator.JobGuardHealthCheck}, {@link io.jobguard.spring.boot.LettuceReconnectDelay}):
 * {@code Boot3HealthAutoConfiguration} registers the health indicator and {@code Boot3LettuceAutoConfiguration} caps
 * the Lettuce reconnect backoff, each as on Boot 4.
 * Nothing here is API: the package is opened to Spring, not exported.
 */
package io.jobguard.spring.boot3;
