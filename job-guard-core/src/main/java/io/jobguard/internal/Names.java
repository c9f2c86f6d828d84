package io.jobguard.internal;

/**
 * The one check for every name job-guard puts into a Redis key, a pub/sub message or a log line:
 * namespaces, job names, node ids, key prefixes, batch namespaces and ShedLock lock names. A name
 * that passes is non-blank, at most {@value #MAX_LENGTH} characters, has no whitespace at either
 * end (a {@code .properties} value such as {@code billing   # comment} or a stray trailing space
 * would otherwise become part of every key), no control or line-separator characters and no
 * braces (a brace would end or split the Redis Cluster hash tag {@code {...}} that keeps one job's
 * keys in one slot).
 *
 * <p>Namespaces (job and batch) must in addition contain no whitespace at all and none of the
 * separators {@code :}, {@code ~} and {@code |}. Keys are built as {@code <prefix>:{<ns>:<job>}...},
 * {@code <prefix>:{<ns>~batch}...} and {@code <prefix>:{<ns>~shedlock:<lock>}...}, and release
 * messages as {@code run|<ns>|<job>}; with no separator inside the namespace, the namespace ends at
 * the first separator, so distinct (namespace, name) pairs always give distinct keys and messages
 * (without the rule, namespace {@code a:b} with job {@code c} and namespace {@code a} with job
 * {@code b:c} shared every key). Job and lock names keep {@code :}, {@code .} and {@code |}: they
 * come last inside the hash tag, which makes them unambiguous (docs/names-and-keys.md).
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class Names {

    /** The longest accepted name, in characters. */
    public static final int MAX_LENGTH = 200;

    private static final String NAMESPACE_SEPARATORS = ":~|";

    private Names() {
    }

    /**
     * Checks a job name, node id or lock name.
     *
     * @param value     the name
     * @param parameter what the name is (a parameter or property), named in the message
     * @return the name, unchanged
     * @throws IllegalArgumentException naming {@code parameter}, the value and the problem
     */
    public static String name(String value, String parameter) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(parameter + " must not be blank");
        }
        if (value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(parameter + " '" + value.substring(0, 40) + "...' is longer than "
                    + MAX_LENGTH + " characters (" + value.length() + ")");
        }
        if (Character.isWhitespace(value.charAt(0)) || Character.isWhitespace(value.charAt(value.length() - 1))
                || Character.isSpaceChar(value.charAt(0)) || Character.isSpaceChar(value.charAt(value.length() - 1))) {
            throw new IllegalArgumentException(parameter + " '" + printable(value)
                    + "' starts or ends with whitespace; remove it (in a .properties file, a '#' after a value "
                    + "is not a comment)");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                throw new IllegalArgumentException(parameter + " '" + printable(value)
                        + "' contains a control character at index " + i);
            }
            if (c == '{' || c == '}') {
                throw new IllegalArgumentException(parameter + " '" + value + "' contains '" + c
                        + "'; braces delimit job-guard's Redis Cluster hash tags and are not allowed in names");
            }
        }
        return value;
    }

    /**
     * Checks a key prefix: a {@link #name} without whitespace.
     *
     * @param value     the prefix
     * @param parameter what the prefix is, named in the message
     * @return the prefix, unchanged
     * @throws IllegalArgumentException naming {@code parameter}, the value and the problem
     */
    public static String keyPrefix(String value, String parameter) {
        name(value, parameter);
        noWhitespace(value, parameter);
        return value;
    }

    /**
     * Checks a job or batch namespace: a {@link #name} without whitespace and without the key
     * separators {@code :}, {@code ~} and {@code |}.
     *
     * @param value     the namespace
     * @param parameter what the namespace is, named in the message
     * @return the namespace, unchanged
     * @throws IllegalArgumentException naming {@code parameter}, the value and the problem
     */
    public static String namespace(String value, String parameter) {
        name(value, parameter);
        noWhitespace(value, parameter);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (NAMESPACE_SEPARATORS.indexOf(c) >= 0) {
                throw new IllegalArgumentException(parameter + " '" + value + "' contains '" + c
                        + "', a separator in job-guard's keys; a namespace must not contain ':', '~' or '|' "
                        + "(use '-', '_' or '.' instead)");
            }
        }
        return value;
    }

    private static void noWhitespace(String value, String parameter) {
        for (int i = 0; i < value.length(); i++) {
            if (Character.isWhitespace(value.charAt(i)) || Character.isSpaceChar(value.charAt(i))) {
                throw new IllegalArgumentException(parameter + " '" + value + "' contains whitespace at index " + i
                        + "; it must be one word (in a .properties file, a '#' after a value is not a comment)");
            }
        }
    }

    /** The value with control characters shown as {@code \\uXXXX}, so the message stays on one line. */
    private static String printable(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
