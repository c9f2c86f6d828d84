package io.jobguard;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a method only while every business key computed from its arguments is locked by one batch
 * lease (all or nothing); the lease is released when the method returns or throws. The method
 * never runs unlocked: when the keys cannot be locked it either throws
 * {@link io.jobguard.batch.BatchLockUnavailableException} (the default) or, for {@code void}
 * methods that opt in with {@link Unavailable#SKIP}, does not run at all.
 *
 * <p>{@link #keys()} is a SpEL expression over the method's parameters, by name (compile with
 * {@code -parameters}) or as {@code #p0}, {@code #a0}; it may evaluate to a collection, an array
 * or a single value, each element turned into a key with {@code toString()}. Duration attributes
 * accept {@code "30s"}, {@code "500ms"}, {@code "5m"} or ISO-8601; an invalid value, an empty
 * namespace, an unparsable expression or {@code SKIP} on a non-void method fails when the bean is
 * proxied (at startup with Spring), naming the method.
 *
 * <pre>{@code
 * @BatchLocked(namespace = "sku", keys = "#order.lines.![sku]", lease = "2m")
 * public void reserve(PurchaseOrder order) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface BatchLocked {

    /**
     * The batch namespace the keys live in; batches in different namespaces never conflict.
     *
     * @return the batch namespace
     */
    String namespace();

    /**
     * SpEL over the method arguments giving the keys: a collection, an array or one value.
     *
     * @return the key expression
     */
    String keys();

    /**
     * What to do when some key is held by another lease: fail fast or wait.
     *
     * @return the guard type
     */
    GuardType type() default GuardType.RETURN;

    /**
     * How long the keys stay locked if this node dies; renewed while the method runs when
     * {@link #keepAlive()} is on.
     *
     * @return the lease, or empty for the configured default
     */
    String lease() default "";

    /**
     * How long a {@link GuardType#WAIT} call waits for the keys.
     *
     * @return the bound on waiting, or empty for the lease duration
     */
    String waitFor() default "";

    /**
     * Whether the lease is renewed (every lease/3) while the method runs.
     *
     * @return {@code true} to keep the lease alive
     */
    boolean keepAlive() default true;

    /**
     * What happens when the keys cannot be locked.
     *
     * @return the behaviour
     */
    Unavailable whenUnavailable() default Unavailable.THROW;

    /** What a {@link BatchLocked} method does when its keys cannot be locked; it never runs unlocked. */
    enum Unavailable {
        /** Throw {@link io.jobguard.batch.BatchLockUnavailableException}. */
        THROW,
        /** Do not run the method and return normally; allowed only on {@code void} methods. */
        SKIP
    }
}
