package io.jobguard.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Shorthand for {@code @ExtendWith(RedisExtension.class)}: the test class may take
 * {@link RedisServerProcess}, {@link RedisClusterProcess} and {@link RedisEndpoint} parameters.
 * See {@link RedisExtension} for what each test can rely on.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedisExtension.class)
public @interface WithRedis {
}
