package io.jobguard.internal.options;

import io.jobguard.DurationParser;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Parses option values as every source gives them. A blank string is no value; each refusal is an
 * {@link IllegalArgumentException} whose message starts with the culprit and names the value.
 */
public final class OptionValues {

    private OptionValues() {
    }

    /**
     * A duration: a {@link Duration}, a {@link Number} of milliseconds, or text for {@link DurationParser}.
     *
     * @param value   the value, possibly null or blank
     * @param culprit names the setting and the job
     * @return the duration, or null for no value
     */
    public static Duration duration(Object value, String culprit) {
        if (value == null || value instanceof Duration) {
            return (Duration) value;
        }
        if (value instanceof Number n) {
            return Duration.ofMillis(n.longValue());
        }
        return value.toString().isBlank() ? null : DurationParser.parse(value.toString(), culprit);
    }

    /**
     * An enum constant: the constant itself, or its name in any case with {@code -} for {@code _}.
     *
     * @param type    the enum
     * @param value   the value, possibly null or blank
     * @param culprit names the setting and the job
     * @param <E>     the enum type
     * @return the constant, or null for no value
     */
    public static <E extends Enum<E>> E constant(Class<E> type, Object value, String culprit) {
        if (value == null || type.isInstance(value)) {
            return type.cast(value);
        }
        String text = value.toString().trim();
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Enum.valueOf(type, text.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(culprit + " is \"" + value + "\", not one of "
                    + Arrays.toString(type.getEnumConstants()), e);
        }
    }

    /**
     * A boolean: a {@link Boolean} or {@code true}/{@code false} in any case.
     *
     * @param value   the value, possibly null or blank
     * @param culprit names the setting and the job
     * @return the boolean, or null for no value
     */
    public static Boolean bool(Object value, String culprit) {
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        String text = value.toString().trim().toLowerCase(Locale.ROOT);
        if (text.isEmpty()) {
            return null;
        }
        if (text.equals("true") || text.equals("false")) {
            return Boolean.valueOf(text);
        }
        throw new IllegalArgumentException(culprit + " must be true or false, got '" + value + "'");
    }

    /**
     * An integer: a {@link Number} or decimal text.
     *
     * @param value   the value, possibly null or blank
     * @param culprit names the setting and the job
     * @return the integer, or null for no value
     */
    public static Integer integer(Object value, String culprit) {
        if (value == null || value instanceof Integer) {
            return (Integer) value;
        }
        if (value instanceof Number n) {
            if (n.longValue() != n.intValue()) {
                throw new IllegalArgumentException(culprit + " is " + value + ", out of range");
            }
            return n.intValue();
        }
        String text = value.toString().trim();
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Integer.valueOf(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(culprit + " is \"" + value + "\", not a number", e);
        }
    }

    /**
     * A decimal number: a {@link Number} or text such as {@code 2} or {@code 0.25}.
     *
     * @param value   the value, possibly null or blank
     * @param culprit names the setting and the job
     * @return the number, or null for no value
     */
    public static Double decimal(Object value, String culprit) {
        if (value == null || value instanceof Number) {
            return value == null ? null : ((Number) value).doubleValue();
        }
        String text = value.toString().trim();
        if (text.isEmpty()) {
            return null;
        }
        try {
            double parsed = Double.parseDouble(text);
            if (Double.isFinite(parsed)) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException(culprit + " is \"" + value + "\", not a number");
    }

    /**
     * Failure classes: a {@code Class}, an array or collection of them or of class names, or text of comma-separated
     * class names, loaded by the context class loader (else this library's).
     *
     * @param value   the value, possibly null or empty
     * @param culprit names the setting and the job
     * @return the classes, empty for no value
     * @throws IllegalArgumentException naming the class when it cannot be loaded or is no {@link Throwable}
     */
    public static List<Class<? extends Throwable>> throwables(Object value, String culprit) {
        List<Object> items = new ArrayList<>();
        if (value instanceof Object[] array) {
            items.addAll(Arrays.asList(array));
        } else if (value instanceof Collection<?> collection) {
            items.addAll(collection);
        } else if (value != null) {
            items.add(value);
        }
        List<Class<? extends Throwable>> out = new ArrayList<>();
        for (Object item : items) {
            if (item instanceof Class<?> type) {
                out.add(throwable(type, culprit));
                continue;
            }
            for (String name : item == null ? new String[0] : item.toString().split(",")) {
                if (!name.isBlank()) {
                    out.add(throwable(load(name.trim(), culprit), culprit));
                }
            }
        }
        return List.copyOf(out);
    }

    private static Class<?> load(String name, String culprit) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(name, false, context != null ? context : OptionValues.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException(culprit + " names " + name + ", a class that cannot be loaded", e);
        }
    }

    private static Class<? extends Throwable> throwable(Class<?> type, String culprit) {
        if (!Throwable.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(culprit + " names " + type.getName() + ", which is not a Throwable");
        }
        return type.asSubclass(Throwable.class);
    }

    /**
     * Text: trimmed, or null when blank.
     *
     * @param value the value, possibly null or blank
     * @return the text, or null for no value
     */
    public static String text(Object value) {
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        return value.toString().trim();
    }
}
