package io.jobguard.spring.boot;

import io.jobguard.Delivery;
import io.jobguard.GuardType;
import io.jobguard.MisfirePolicy;

import java.time.Duration;
import java.util.List;

/**
 * Overrides for one job, bound from {@code jobguard.jobs.<name>.*}, immutable once bound; an unset (null) value
 * keeps the annotation's, and the annotation's unset value the {@code jobguard.*} default. The values are checked
 * where they are applied, naming the job and its method.
 *
 * @param lease          The job's lease.
 * @param waitFor        How long a WAIT firing waits for the lease.
 * @param busyGrace      How long a RETURN firing waits for a run lease held by another fire time's run before it is
 *                       skipped.
 * @param type           RETURN or WAIT.
 * @param keepAlive      Whether the lease is renewed while the run is alive.
 * @param misfirePolicy  What happens to fire times nobody started; unset: the annotation's, else
 *                       jobguard.misfire-policy, else SKIP for a job with a grid of fire times.
 * @param catchUpWindow  How old a missed fire time may be and still be run or reported (default 1 hour).
 * @param catchUpMax     The most missed fire times RUN_ALL runs at once (default 10).
 * @param delivery       What happens to a run that started and never completed; unset: the
 *                       annotation's, else jobguard.delivery, else AT_MOST_ONCE for a job with a grid of fire times.
 * @param attempts       How many attempts a fire time whose runs throw gets in all, 1 to 100 (default 1: no retries).
 * @param retryBackoff   The delay before a failed fire time's second attempt (default 10s, at least 100ms).
 * @param retryMultiplier How much each later retry delay grows, 1 to 10 (default 2).
 * @param retryMaxBackoff The longest retry delay (default 10m).
 * @param retryJitter    The share of a retry delay added or taken at random, 0 to 1 (default 0.1).
 * @param retryOn        The failure classes that retry, by name (default: every Exception).
 * @param noRetryOn      The failure classes that never retry, by name.
 * @param historySize    The most run history entries kept for the job (default jobguard.history.size).
 * @param historyRetention How long the job's run history entries are kept, by fire time; 0 keeps them by count only
 *                       (default jobguard.history.retention).
 */
public record JobOverrideProperties(Duration lease, Duration waitFor, Duration busyGrace, GuardType type,
                                    Boolean keepAlive, MisfirePolicy misfirePolicy, Duration catchUpWindow,
                                    Integer catchUpMax, Delivery delivery, Integer attempts, Duration retryBackoff,
                                    Double retryMultiplier, Duration retryMaxBackoff, Double retryJitter,
                                    List<String> retryOn, List<String> noRetryOn, Integer historySize,
                                    Duration historyRetention) {
}
