package io.jobguard.spring.boot;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The fleet spread, bound from {@code jobguard.spread.*}; immutable once bound.
 *
 * @param enabled Whether each guarded cron or fixed-rate RETURN job's fire times are asked for by one assigned node of
 *                the live fleet, the others taking a fire time over only when that node did not cover it in time
 *                (default true). Off, every node asks Redis for every fire time. The fire-time marker decides either
 *                way.
 */
public record JobGuardSpreadProperties(@DefaultValue("true") boolean enabled) {
}
