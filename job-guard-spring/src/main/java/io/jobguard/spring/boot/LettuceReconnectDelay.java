package io.jobguard.spring.boot;

import io.lettuce.core.resource.Delay;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The reconnect backoff job-guard gives Boot's Lettuce client: exponential from 10 ms (or the cap, if smaller),
 * doubling up to {@code jobguard.redis.reconnect-delay-max}. Lettuce's own default doubles up to 30 s, so after an
 * outage of ten seconds the next attempt could come about eight seconds after Redis is back, and every guarded
 * firing meanwhile is skipped. Both Boot lines' customizers apply this one backoff.
 */
public final class LettuceReconnectDelay {

    private LettuceReconnectDelay() {
    }

    /**
     * The capped backoff.
     *
     * @param max the cap ({@code jobguard.redis.reconnect-delay-max}); null, zero or negative keeps Lettuce's default
     * @return the delay, or empty to keep Lettuce's default
     */
    public static Optional<Delay> cappedAt(Duration max) {
        if (max == null || max.isZero() || max.isNegative()) {
            return Optional.empty();
        }
        return Optional.of(Delay.exponential(Duration.ofMillis(Math.min(10, max.toMillis())), max, 2,
                TimeUnit.MILLISECONDS));
    }
}
