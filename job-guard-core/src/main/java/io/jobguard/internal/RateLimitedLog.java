package io.jobguard.internal;

import org.slf4j.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets at most one log line per key through per period and counts the lines it holds back. So a
 * failure that repeats on every firing (Redis down, a foreign value blocking a job) logs once per
 * job per period, with the number of lines suppressed since the last one, instead of flooding the
 * log. Periods are measured on the injected {@link Clock}. Thread-safe; holds one small entry per
 * key (keys are job names and kinds of failure, so the map stays small).
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class RateLimitedLog {

    private static final int MAX_CAUSES = 10;

    private final Clock clock;
    private final Duration period;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * Creates a limiter.
     *
     * @param clock  measures the periods
     * @param period at most one line per key within this time
     * @throws IllegalArgumentException if the period is not positive
     */
    public RateLimitedLog(Clock clock, Duration period) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.period = Objects.requireNonNull(period, "period");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period must be positive, got " + period);
        }
    }

    /**
     * Decides whether a line for {@code key} may be logged now.
     *
     * @param key what the line is about (for example {@code store-failure|<job>})
     * @return -1 if the line is suppressed, else how many lines of this key were suppressed since
     *         the last one that was let through (0 for the first)
     */
    public long admit(String key) {
        Instant now = clock.instant();
        long[] answer = new long[1];
        windows.compute(key, (k, window) -> {
            if (window == null || !now.isBefore(window.openedAt.plus(period))) {
                answer[0] = window == null ? 0 : window.suppressed;
                return new Window(now, 0);
            }
            answer[0] = -1;
            return new Window(window.openedAt, window.suppressed + 1);
        });
        return answer[0];
    }

    /**
     * Logs a WARN unless a line of the same key was logged less than one period ago; a line that
     * follows suppressed ones says how many.
     *
     * @param log    the logger
     * @param key    what the line is about
     * @param format an SLF4J format
     * @param args   its arguments (a trailing {@link Throwable} is not treated specially)
     * @return whether the line was logged
     */
    public boolean warn(Logger log, String key, String format, Object... args) {
        if (!log.isWarnEnabled()) {
            return false;
        }
        long suppressed = admit(key);
        if (suppressed < 0) {
            return false;
        }
        if (suppressed == 0) {
            log.warn(format, args);
        } else {
            Object[] more = new Object[args.length + 2];
            System.arraycopy(args, 0, more, 0, args.length);
            more[args.length] = suppressed;
            more[args.length + 1] = period;
            log.warn(format + " [{} more like this suppressed in the last {}]", more);
        }
        return true;
    }

    /**
     * The messages of a failure and of each of its causes, so that a log line carries the server's
     * own words ({@code NOPERM ...}, {@code WRONGTYPE ...}) and not only a wrapper's
     * ({@code Error in execution}). A cause whose message the text already contains is left out.
     *
     * @param failure the failure
     * @return for example {@code could not acquire ...: Error in execution; caused by
     *         RedisCommandExecutionException: NOPERM ...} (the outermost message without its class name)
     */
    public static String causeChain(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        String top = failure.getMessage();
        StringBuilder text = new StringBuilder(top == null || top.isBlank() ? describe(failure) : top);
        Map<Throwable, Boolean> visited = new IdentityHashMap<>();
        visited.put(failure, true);
        int depth = 0;
        for (Throwable cause = failure.getCause(); cause != null && !visited.containsKey(cause)
                && depth < MAX_CAUSES; cause = cause.getCause(), depth++) {
            visited.put(cause, true);
            String message = cause.getMessage();
            if (message != null && !message.isBlank() && text.indexOf(message) >= 0) {
                continue;
            }
            text.append("; caused by ").append(describe(cause));
        }
        return text.toString();
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName()
                : t.getClass().getSimpleName() + ": " + message;
    }

    private record Window(Instant openedAt, long suppressed) {
    }
}
