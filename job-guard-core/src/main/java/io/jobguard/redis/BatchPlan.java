package io.jobguard.redis;

import io.jobguard.batch.BatchLockConfig;
import io.jobguard.internal.redis.KeySchema;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The validated, de-duplicated keys of one batch, cut into the chunks that are sent as one script
 * call each. Chunks follow one fixed global order (sorted keys; in spread mode ascending slots,
 * then sorted keys), so two batches that overlap take their shared keys in the same order.
 */
final class BatchPlan {

    /** One script call's worth of keys; all in one slot. */
    record Chunk(List<String> keys, List<byte[]> redisKeys) {
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
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("batch namespace must not be blank, got '" + namespace + "'");
        }
        if (namespace.contains("{") || namespace.contains("}")) {
            throw new IllegalArgumentException("batch namespace must not contain '{' or '}', got '" + namespace + "'");
        }
    }

    /**
     * Validates keys and plans the chunks.
     *
     * @throws IllegalArgumentException naming the first problem, before anything is sent
     */
    static BatchPlan of(String namespace, Collection<String> input, BatchLockConfig config, KeySchema schema,
                        int alreadyHeld) {
        checkNamespace(namespace);
        if (input == null) {
            throw new IllegalArgumentException("batch keys must not be null (namespace '" + namespace + "')");
        }
        if (input.isEmpty()) {
            throw new IllegalArgumentException("batch keys must not be empty (namespace '" + namespace + "')");
        }
        TreeSet<String> distinct = new TreeSet<>();
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
        List<Chunk> chunks = config.spread()
                ? spreadChunks(namespace, distinct, config.chunkSize(), schema)
                : chunks(namespace, distinct, config.chunkSize(), schema);
        return new BatchPlan(namespace, Collections.unmodifiableSet(distinct), chunks);
    }

    private static List<Chunk> chunks(String namespace, Collection<String> keys, int size, KeySchema schema) {
        List<Chunk> out = new ArrayList<>();
        List<String> current = new ArrayList<>(Math.min(size, keys.size()));
        List<byte[]> currentRedis = new ArrayList<>(Math.min(size, keys.size()));
        for (String key : keys) {
            current.add(key);
            currentRedis.add(bytes(schema.batchKey(namespace, key)));
            if (current.size() == size) {
                out.add(new Chunk(List.copyOf(current), List.copyOf(currentRedis)));
                current.clear();
                currentRedis.clear();
            }
        }
        if (!current.isEmpty()) {
            out.add(new Chunk(List.copyOf(current), List.copyOf(currentRedis)));
        }
        return out;
    }

    private static List<Chunk> spreadChunks(String namespace, Collection<String> keys, int size, KeySchema schema) {
        Map<Integer, List<String>> keysBySlot = new TreeMap<>();
        for (String key : keys) {
            int slot = ClusterSlotHashUtil.calculateSlot(schema.batchSpreadKey(namespace, key));
            keysBySlot.computeIfAbsent(slot, s -> new ArrayList<>()).add(key);
        }
        List<Chunk> out = new ArrayList<>();
        keysBySlot.forEach((slot, slotKeys) -> {
            List<String> current = new ArrayList<>();
            List<byte[]> currentRedis = new ArrayList<>();
            for (String key : slotKeys) {
                current.add(key);
                currentRedis.add(bytes(schema.batchSpreadKey(namespace, key)));
                if (current.size() == size) {
                    out.add(new Chunk(List.copyOf(current), List.copyOf(currentRedis)));
                    current.clear();
                    currentRedis.clear();
                }
            }
            if (!current.isEmpty()) {
                out.add(new Chunk(List.copyOf(current), List.copyOf(currentRedis)));
            }
        });
        return out;
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
