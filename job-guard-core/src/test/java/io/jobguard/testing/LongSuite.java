package io.jobguard.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * The test (or every test of the class) belongs to the long suite, JUnit tag {@value #TAG}: {@code mvn verify} leaves
 * it out and {@code mvn verify -Plong} runs the long suite alone. A run that names its classes
 * ({@code -Dit.test=...}) runs every test of them, tagged or not. The class keeps a short case of the same guarantee
 * in {@code mvn verify}.
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(LongSuite.TAG)
public @interface LongSuite {

    /** The JUnit tag; the build's {@code long} profile selects it and every other build excludes it. */
    String TAG = "long";
}
