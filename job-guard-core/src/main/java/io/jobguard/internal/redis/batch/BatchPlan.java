package io.jobguard.internal.redis.batch;

import io.jobguard.batch.BatchLockConfig;
import io.jobguard.internal.Names;
import io.jobguard.internal.redis.KeySchema;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The validated, de-duplicated keys of one batch, cut into the chunks that are sent as one script
 * call each. Every chunk lives under one key base (one hash tag, so one slot): the namespace's base
 * by default, one of {@link #SPREAD_BUCKETS} bucket bases in spread mode. Chunks follow one fixed
 * global order (ascending buckets, then sorted keys), so two batches that overlap take their shared
 * keys in the same order. A batch that fits one call keeps its input order: order cannot matter there.
 */
final class BatchPlan {

    /**
     * Spread mode: buckets per namespace. Each bucket's hash tag is chosen so that bucket {@code i}
     * sits in the {@code i}-th sixteenth of the 16,384 cluster slots, which spreads a namespace
     * evenly over masters that own contiguous slot ranges.
     */
    static final int SPREAD_BUCKETS = 16;
    private static final int SLOTS = 16_384;

    /**
     * One script call's worth of keys, all under one key base.
     *
     * @param base   the key base (hash tag) of the keys' hash and lease records
     * @param keys   the business keys, in lock order
     * @param fields the business keys as UTF-8 bytes
     */
    record Chunk(String base, List<String> keys, List<byte[]> fields) {
    }

    private final String namespace;
    private final Set<String> keys;
    private final List<Chunk> chunks;

    private BatchPlan(String namespace, Set<String> keys, List<Chunk> chunks) {
        this.namespace = namespace;
        this.keys = keys;
        this.chunks = chunks;
    }

    static void checkNamespace(String namespace) {
        Names.namespace(namespace, "batch namespace");
    }

    /**
     * Validates keys and plans the chunks.
     *
     * @param spread asked only once the keys are valid (it may need Redis to choose the mode)
     * @throws IllegalArgumentException naming the first problem, before anything is sent
     */
    static BatchPlan of(String namespace, Collection<String> input, BatchLockConfig config, KeySchema schema,
                        int alreadyHeld, BooleanSupplier spread) {
        checkNamespace(namespace);
        if (input == null) {
            throw new IllegalArgumentException("batch keys must not be null (namespace '" + namespace + "')");
        }
        if (input.isEmpty()) {
            throw new IllegalArgumentException("batch keys must not be empty (namespace '" + namespace + "')");
        }
        Set<String> distinct = new LinkedHashSet<>(Math.max(16, input.size() * 4 / 3 + 1));
        int position = 0;
        for (String key : input) {
            if (key == null) {
                throw new IllegalArgumentException("batch key #" + position + " is null (namespace '" + namespace + "')");
            }
            if (key.isBlank()) {
                throw new IllegalArgumentException("batch key #" + position + " is blank (namespace '" + namespace + "')");
            }
            if (key.length() > config.maxKeyLength()) {
                throw new IllegalArgumentException("batch key #" + position + " is " + key.length()
                        + " characters long, more than maxKeyLength " + config.maxKeyLength() + ": '"
                        + key.substring(0, Math.min(32, key.length())) + "...' (namespace '" + namespace + "')");
            }
            distinct.add(key);
            position++;
        }
        if (distinct.size() + alreadyHeld > config.maxKeys()) {
            throw new IllegalArgumentException("batch of " + (distinct.size() + alreadyHeld)
                    + " distinct keys exceeds maxKeys " + config.maxKeys() + " (namespace '" + namespace + "')");
        }
        List<Chunk> chunks = spread.getAsBoolean()
                ? spreadChunks(namespace, distinct, config.chunkSize(), schema)
                : chunks(schema.batchBase(namespace), distinct, config.chunkSize());
        Set<String> ordered = new LinkedHashSet<>(Math.max(16, distinct.size() * 4 / 3 + 1));
        for (Chunk chunk : chunks) {
            ordered.addAll(chunk.keys());
        }
        return new BatchPlan(namespace, Collections.unmodifiableSet(ordered), chunks);
    }

    private static List<Chunk> chunks(String base, Collection<String> unordered, int size) {
        List<String> keys = new ArrayList<>(unordered);
        if (keys.size() > size) {
            // Several calls: take them in one global order, so overlapping batches meet on the same chunk first.
            Collections.sort(keys);
        }
        List<Chunk> out = new ArrayList<>();
        List<String> current = new ArrayList<>(Math.min(size, keys.size()));
        for (String key : keys) {
            current.add(key);
            if (current.size() == size) {
                out.add(chunk(base, current));
                current.clear();
            }
        }
        if (!current.isEmpty()) {
            out.add(chunk(base, current));
        }
        return out;
    }

    private static Chunk chunk(String base, List<String> keys) {
        List<byte[]> fields = new ArrayList<>(keys.size());
        for (String key : keys) {
            fields.add(bytes(key));
        }
        return new Chunk(base, List.copyOf(keys), List.copyOf(fields));
    }

    private static List<Chunk> spreadChunks(String namespace, Collection<String> keys, int size, KeySchema schema) {
        String[] tags = bucketTags(namespace);
        Map<Integer, List<String>> keysByBucket = new TreeMap<>();
        for (String key : keys) {
            int bucket = ClusterSlotHashUtil.calculateSlot(key) * SPREAD_BUCKETS / SLOTS;
            keysByBucket.computeIfAbsent(bucket, b -> new ArrayList<>()).add(key);
        }
        List<Chunk> out = new ArrayList<>();
        keysByBucket.forEach((bucket, bucketKeys) ->
                out.addAll(chunks(schema.batchBucketBase(tags[bucket]), bucketKeys, size)));
        return out;
    }

    /**
     * The hash tags of a namespace's buckets: {@code <ns>~batch~<n>} with the smallest {@code n}
     * whose slot falls in the bucket's slot range. Deterministic, so every node computes the same.
     * Computed per call rather than cached in a static map (no static mutable state: nothing is shared between engines or tests): it
     * takes a few dozen CRC16s of short strings, next to a batch's network round trips.
     */
    static String[] bucketTags(String namespace) {
        String[] tags = new String[SPREAD_BUCKETS];
        int missing = SPREAD_BUCKETS;
        for (int n = 0; missing > 0; n++) {
            String tag = namespace + "~batch~" + n;
            int bucket = ClusterSlotHashUtil.calculateSlot(tag) * SPREAD_BUCKETS / SLOTS;
            if (tags[bucket] == null) {
                tags[bucket] = tag;
                missing--;
            }
        }
        return tags;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    String namespace() {
        return namespace;
    }

    Set<String> keys() {
        return keys;
    }

    List<Chunk> chunks() {
        return chunks;
    }
}
