package io.jobguard;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * How a fire time whose run threw is run again: up to {@link #attempts()} attempts in all, attempt k+1 due a
 * back-off after attempt k failed, on whichever live node looks first. The back-off of failed attempt k is
 * {@code min(maxBackoff, backoff x multiplier^(k-1))}, spread by +/- {@code jitter} of itself; it is counted on the
 * store's clock from the failure, so skewed node clocks do not change it. {@link #NONE} (one attempt) is the default.
 *
 * <p>Which failures retry: a {@link LeaseLostException} never does (the lease was lost, so the run is not known to be
 * alone; the job's {@link Delivery} decides about a run that lost its lease). Otherwise an exception retries when it
 * is an instance of a {@link #retryOn()} class (any {@link Exception} when the list is empty) and of no
 * {@link #noRetryOn()} class; an {@link Error} retries only when listed in {@code retryOn}. Rules and a timeline:
 * docs/jobs.md, "Retries".
 *
 * @param attempts   attempts a fire time gets in all when its runs throw, 1 to 100 (1: no retries)
 * @param backoff    the delay before the second attempt, at least 100 ms
 * @param multiplier how much each later delay grows, 1 to 10
 * @param maxBackoff the longest delay, at least {@code backoff}
 * @param jitter     the share of a delay added or taken at random, 0 to 1
 * @param retryOn    the failures that retry (empty: every {@link Exception})
 * @param noRetryOn  the failures that never retry, checked first
 */
public record RetryPolicy(int attempts, Duration backoff, double multiplier, Duration maxBackoff, double jitter,
                          List<Class<? extends Throwable>> retryOn, List<Class<? extends Throwable>> noRetryOn) {

    /** The default first back-off. */
    public static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(10);
    /** The default multiplier. */
    public static final double DEFAULT_MULTIPLIER = 2.0;
    /** The default longest back-off. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofMinutes(10);
    /** The default jitter. */
    public static final double DEFAULT_JITTER = 0.1;
    /** The most attempts a fire time may get. */
    public static final int MAX_ATTEMPTS = 100;

    /** One attempt, no retries: a run that throws ends its fire time {@link RunOutcome#FAILED}. */
    public static final RetryPolicy NONE = new RetryPolicy(1, DEFAULT_BACKOFF, DEFAULT_MULTIPLIER, DEFAULT_MAX_BACKOFF,
            DEFAULT_JITTER, List.of(), List.of());

    /**
     * Checks every value; the message names the value, for the resolver to prefix with the job and the attribute.
     *
     * @throws IllegalArgumentException when a value is out of range
     */
    public RetryPolicy {
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        retryOn = List.copyOf(Objects.requireNonNull(retryOn, "retryOn"));
        noRetryOn = List.copyOf(Objects.requireNonNull(noRetryOn, "noRetryOn"));
        if (attempts < 1 || attempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempts must be 1 to " + MAX_ATTEMPTS + ", got " + attempts);
        }
        if (backoff.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("retry back-off must be at least 100ms, got " + backoff);
        }
        if (!(multiplier >= 1.0 && multiplier <= 10.0)) {
            throw new IllegalArgumentException("retry multiplier must be 1 to 10, got " + multiplier);
        }
        if (maxBackoff.compareTo(backoff) < 0) {
            throw new IllegalArgumentException("retry max back-off (" + maxBackoff + ") must be at least the back-off ("
                    + backoff + ")");
        }
        if (!(jitter >= 0.0 && jitter <= 1.0)) {
            throw new IllegalArgumentException("retry jitter must be 0 to 1, got " + jitter);
        }
    }

    /**
     * A policy of {@code attempts} attempts with the default back-off, multiplier, cap and jitter, retrying every
     * {@link Exception}.
     *
     * @param attempts attempts in all, 1 to 100
     * @return the policy
     */
    public static RetryPolicy attempts(int attempts) {
        return new RetryPolicy(attempts, DEFAULT_BACKOFF, DEFAULT_MULTIPLIER, DEFAULT_MAX_BACKOFF, DEFAULT_JITTER,
                List.of(), List.of());
    }

    /**
     * The same policy with another first back-off, multiplier, cap and jitter.
     *
     * @param backoff    the delay before the second attempt
     * @param multiplier how much each later delay grows
     * @param maxBackoff the longest delay
     * @param jitter     the share of a delay added or taken at random
     * @return the policy
     */
    public RetryPolicy withBackoff(Duration backoff, double multiplier, Duration maxBackoff, double jitter) {
        return new RetryPolicy(attempts, backoff, multiplier, maxBackoff, jitter, retryOn, noRetryOn);
    }

    /**
     * The same policy retrying only the given failures (and never the second list's).
     *
     * @param retryOn   the failures that retry (empty: every {@link Exception})
     * @param noRetryOn the failures that never retry
     * @return the policy
     */
    public RetryPolicy on(List<Class<? extends Throwable>> retryOn, List<Class<? extends Throwable>> noRetryOn) {
        return new RetryPolicy(attempts, backoff, multiplier, maxBackoff, jitter, retryOn, noRetryOn);
    }

    /**
     * Tells whether a failed run of the job may be attempted again at all.
     *
     * @return {@code true} when {@link #attempts()} is above 1
     */
    public boolean retries() {
        return attempts > 1;
    }

    /**
     * Tells whether {@code failure} retries under this policy (see the class comment), attempts aside.
     *
     * @param failure what the run threw
     * @return {@code true} when it retries
     */
    public boolean retriesOn(Throwable failure) {
        if (failure == null || failure instanceof LeaseLostException || !retries()) {
            return false;
        }
        if (noRetryOn.stream().anyMatch(type -> type.isInstance(failure))) {
            return false;
        }
        if (retryOn.isEmpty()) {
            return failure instanceof Exception;
        }
        return retryOn.stream().anyMatch(type -> type.isInstance(failure));
    }

    /**
     * The delay before the attempt after failed attempt {@code failedAttempt}.
     *
     * @param failedAttempt the attempt that failed, from 1
     * @param random        a uniform random number in [0, 1), for the jitter
     * @return the delay, at least 100 ms
     */
    public Duration backoffAfter(int failedAttempt, DoubleSupplier random) {
        double millis = backoff.toMillis() * Math.pow(multiplier, Math.max(0, failedAttempt - 1));
        millis = Math.min(millis, maxBackoff.toMillis());
        millis += millis * jitter * (2 * random.getAsDouble() - 1);
        return Duration.ofMillis(Math.max(100, Math.round(millis)));
    }
}
