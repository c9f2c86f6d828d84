package io.jobguard.spring;

import io.jobguard.spring.batch.BatchLockingConfiguration;
import org.springframework.context.annotation.Import;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Turns on job-guard in a plain Spring application: every {@code @Scheduled} method that is also annotated
 * {@link io.jobguard.ClusterSingleton @ClusterSingleton} runs each nominal fire time on at most one
 * node of the cluster. Spring Boot applications get it from the auto-configuration. Use it next to {@code @EnableScheduling} and define a
 * {@link io.jobguard.JobGuard} bean, for example
 * {@code JobGuard.create(RedisLeaseStore.create(connectionFactory), JobGuardConfig.builder()...build())}.
 *
 * <p>At startup, the context fails, naming the method, when a {@code @ClusterSingleton} method is
 * not {@code @Scheduled}, returns a reactive type other than {@code Mono}, {@code Flux} or
 * {@code CompletableFuture}, is a Kotlin suspend function without {@code kotlinx-coroutines-reactor}
 * on the classpath, has an unparsable or
 * non-positive duration, or shares its job name with another guarded method.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import({JobGuardInfrastructure.class, BatchLockingConfiguration.class})
// "exports": the imported configuration is package-private on purpose; Spring reads it, applications never do
@SuppressWarnings("exports")
public @interface EnableJobGuard {
}
