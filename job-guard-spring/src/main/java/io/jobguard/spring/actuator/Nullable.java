package io.jobguard.spring.actuator;

import javax.annotation.Nonnull;
import javax.annotation.meta.TypeQualifierNickname;
import javax.annotation.meta.When;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter of an endpoint operation that a request may leave out. Boot 4 reads any parameter annotation
 * named {@code Nullable}; Boot 3.5 reads its JSR-305 meaning ({@code Nonnull(when = MAYBE)}), present where
 * job-guard-spring-boot3 brings JSR-305.
 */
@Documented
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Nonnull(when = When.MAYBE)
@TypeQualifierNickname
@interface Nullable {
}
