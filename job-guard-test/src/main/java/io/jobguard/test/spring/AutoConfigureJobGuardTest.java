package io.jobguard.test.spring;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Spring Boot test's job-guard on the test kit instead of Redis ({@link JobGuardTestAutoConfiguration}).
 * Guarded methods fire only when the test fires them through the {@link GuardedJobs} bean, against a
 * {@code SimulatedLeaseStore} on a {@code MutableClock}, both beans too.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration(JobGuardTestAutoConfiguration.class)
public @interface AutoConfigureJobGuardTest {
}
