package io.jobguard;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a scheduled job (a Spring {@code @Scheduled} method or a Quartz {@code Job} class) whose
 * every nominal fire time runs on at most one node of the cluster, and whose runs never overlap
 * across the cluster.
 *
 * <p>Duration attributes are strings: {@code "30s"}, {@code "500ms"}, {@code "5m"}, {@code "1h"},
 * {@code "2d"} or ISO-8601 ({@code "PT30S"}); the Spring module also resolves {@code ${...}}
 * placeholders in them. An empty string means "use the configured default". A value that cannot
 * be parsed fails at startup, naming the job.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface ClusterSingleton {

    /**
     * The job name shared by all nodes. Defaults to {@code SimpleClassName.method} for Spring and
     * to the Quartz {@code JobKey} ({@code group.name}).
     *
     * @return the job name, or empty for the default
     */
    String name() default "";

    /**
     * What to do when another run of the job holds the lease.
     *
     * @return the guard type
     */
    GuardType type() default GuardType.RETURN;

    /**
     * How long the run lease lasts if the node dies; renewed while the run is alive when
     * {@link #keepAlive()} is on.
     *
     * @return the lease duration, or empty for the configured default
     */
    String lease() default "";

    /**
     * How long a {@link GuardType#WAIT} firing waits for the lease.
     *
     * @return the bound on waiting, or empty for the lease duration
     */
    String waitFor() default "";

    /**
     * How long a {@link GuardType#RETURN} firing that finds the run lease held by another run (of
     * another fire time) waits for its release before it is skipped as busy. Clock skew makes nodes
     * fire different fire times at the same instant, so a short run of one would otherwise drop the
     * other. {@code "0s"} skips at once.
     *
     * @return the grace, or empty for the configured default (1 second, capped at the lease)
     */
    String busyGrace() default "";

    /**
     * Whether the run lease is renewed (every lease/3) while the run is alive.
     *
     * @return {@code true} to keep the lease alive
     */
    boolean keepAlive() default true;

    /**
     * What happens to fire times nobody started ({@link MisfirePolicy}: {@code SKIP},
     * {@code RUN_LATEST}, {@code RUN_ALL}). A job with a grid of fire times (cron, fixed rate, a Quartz
     * trigger) recovers missed fire times by default, as {@code SKIP} (each fire time nobody started
     * reported {@code MISSED} once, none run late); setting it here or in properties chooses another policy.
     *
     * @return the policy's name, or empty for the configured default
     */
    String misfirePolicy() default "";

    /**
     * What happens to a run that started and never completed ({@link Delivery}:
     * {@code AT_MOST_ONCE}, {@code AT_LEAST_ONCE}).
     *
     * @return the delivery's name, or empty for the configured default
     */
    String delivery() default "";

    /**
     * How old a missed fire time may be and still be run or reported (for example {@code "2h"}).
     *
     * @return the window, or empty for the configured default (1 hour)
     */
    String catchUpWindow() default "";

    /**
     * The most missed fire times {@code RUN_ALL} runs at once.
     *
     * @return the maximum, or 0 for the configured default (10)
     */
    int catchUpMax() default 0;

    /**
     * How many attempts a fire time gets in all when its runs throw: attempt k+1 runs a back-off after attempt k
     * failed, on whichever live node looks first ({@link RetryPolicy}). A failure that does not retry, or the last
     * attempt's, ends the fire time.
     *
     * @return 1 to 100, or 0 for the configured default (1: no retries)
     */
    int attempts() default 0;

    /**
     * The delay before a failed fire time's second attempt, counted on the store's clock from the failure.
     *
     * @return the delay (at least {@code 100ms}), or empty for the default (10 seconds)
     */
    String retryBackoff() default "";

    /**
     * How much each later retry delay grows: the delay after failed attempt k is
     * {@code retryBackoff x retryMultiplier^(k-1)}, at most {@link #retryMaxBackoff()}.
     *
     * @return 1 to 10 (for example {@code "2"}), or empty for the default (2)
     */
    String retryMultiplier() default "";

    /**
     * The longest retry delay.
     *
     * @return the cap, or empty for the default (10 minutes, or the back-off when longer)
     */
    String retryMaxBackoff() default "";

    /**
     * The share of each retry delay added or taken at random, so that many jobs failing at once do not retry at once.
     *
     * @return 0 to 1 (for example {@code "0.1"}), or empty for the default (0.1)
     */
    String retryJitter() default "";

    /**
     * The failures that retry; empty for every {@link Exception}. A {@link LeaseLostException} never retries.
     *
     * @return the failure classes
     */
    Class<? extends Throwable>[] retryOn() default {};

    /**
     * The failures that never retry, checked before {@link #retryOn()}.
     *
     * @return the failure classes
     */
    Class<? extends Throwable>[] noRetryOn() default {};

    /**
     * The most entries of this job's run history the store keeps (docs/operations.md, "Run history"): the newest; a
     * run's release trims older ones. {@code 0} keeps none.
     *
     * @return 0 or more, or -1 for the configured default ({@code jobguard.history.size}, 2,000)
     */
    int historySize() default -1;

    /**
     * How long this job's run history entries are kept, by fire time (for example {@code "30d"}); {@code "0s"} keeps
     * them by count only.
     *
     * @return the retention, or empty for the configured default ({@code jobguard.history.retention}, 14 days)
     */
    String historyRetention() default "";
}
