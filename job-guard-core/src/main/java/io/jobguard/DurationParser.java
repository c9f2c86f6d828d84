package io.jobguard;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the duration strings used in annotations and properties: a number with a unit
 * ({@code ms}, {@code s}, {@code m}, {@code h}, {@code d}) or ISO-8601 ({@code PT30S}).
 */
public final class DurationParser {

    private static final Pattern SIMPLE = Pattern.compile("^(\\d+)\\s*(ms|s|m|h|d)$");

    private DurationParser() {
    }

    /**
     * Parses a duration.
     *
     * @param value the text, for example {@code "30s"} or {@code "PT30S"}
     * @param culprit what the value configures, named in the error (for example
     *                {@code "lease of job 'Reports.nightly'"})
     * @return the parsed duration
     * @throws IllegalArgumentException if the value is null, blank or not a duration; the message
     *                                  names the culprit and the value
     */
    public static Duration parse(String value, String culprit) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(culprit + ": duration is blank");
        }
        String text = value.trim();
        Matcher m = SIMPLE.matcher(text.toLowerCase(Locale.ROOT));
        try {
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            }
            return Duration.parse(text);
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException(culprit + ": cannot parse duration '" + value
                    + "' (use e.g. 500ms, 30s, 5m, 1h, 2d or ISO-8601 PT30S)", e);
        }
    }

    /**
     * Parses a duration, or returns the fallback when the value is null or blank.
     *
     * @param value the text, possibly blank
     * @param fallback returned for a blank value
     * @param culprit what the value configures, named in the error
     * @return the parsed duration or the fallback
     * @throws IllegalArgumentException if a non-blank value is not a duration
     */
    public static Duration parseOrDefault(String value, Duration fallback, String culprit) {
        return value == null || value.isBlank() ? fallback : parse(value, culprit);
    }
}
