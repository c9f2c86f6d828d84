package io.jobguard.test;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives each test of the annotated class (or the annotated test) its own job-guard engine on a
 * {@link SimulatedLeaseStore}, as parameters ({@link JobGuardExtension}); no Redis, no Spring.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(JobGuardExtension.class)
public @interface JobGuardTest {
}
