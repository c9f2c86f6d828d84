package io.jobguard.spring.batch;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.BaseStream;

/**
 * Turns the value of a {@code @BatchLocked} keys expression into business keys: each element of
 * any {@link Iterable}, {@link Iterator}, {@link java.util.stream.Stream} (also {@code IntStream}
 * and friends) or array, or a single value. A {@link Map} is refused, because it is unclear whether
 * its keys or values are meant; never does a container become one key through its
 * {@code toString()}, which would let two calls for the same item run at once.
 */
final class BatchKeys {

    private BatchKeys() {
    }

    /**
     * Extracts the keys.
     *
     * @param value   the expression's value, not null
     * @param culprit the annotation and expression, for the message
     * @return the keys in order, null elements kept (the batch locks report them by position)
     * @throws IllegalArgumentException for a Map
     */
    static List<String> of(Object value, String culprit) {
        List<String> keys = new ArrayList<>();
        if (value instanceof Map<?, ?>) {
            throw new IllegalArgumentException(culprit + " gave a Map; lock its keys with '.keySet()' (or its values "
                    + "with '.values()')");
        }
        if (value instanceof Iterable<?> iterable) {
            iterable.forEach(k -> keys.add(text(k)));
        } else if (value instanceof Iterator<?> iterator) {
            iterator.forEachRemaining(k -> keys.add(text(k)));
        } else if (value instanceof BaseStream<?, ?> stream) {
            try (BaseStream<?, ?> s = stream) {
                s.iterator().forEachRemaining(k -> keys.add(text(k)));
            }
        } else if (value.getClass().isArray()) {
            int n = Array.getLength(value);
            for (int i = 0; i < n; i++) {
                keys.add(text(Array.get(value, i)));
            }
        } else {
            keys.add(value.toString());
        }
        return keys;
    }

    private static String text(Object key) {
        return key == null ? null : key.toString();
    }
}
