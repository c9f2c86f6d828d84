package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema.Layout1Key;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.RedisEndpoints;
import io.jobguard.internal.redis.ScriptRunner;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves every job under one key prefix from key layout 1 into layout 2 ({@code layout-migrate.lua}, one call per job):
 * finds the jobs by {@code SCAN} of their layout-1 keys, on every master of a Redis Cluster. Safe to run again and
 * beside nodes of layout 2 (a job already moved has no layout-1 key left; the script merges without ever moving the
 * state back). Not safe beside nodes of layout 1, which would write the keys again: stop those first.
 */
public record Layout1Migration(ScriptRunner scripts, KeySchema keys) {

    private static final LuaScript MIGRATE = LuaScript.load("layout-migrate");

    /** Migrates every job found; returns how many had layout-1 keys. */
    public int migrateAll() {
        Map<String, List<String>> jobs = new LinkedHashMap<>();
        for (Layout1Key kind : Layout1Key.values()) {
            for (String key : scan(keys.layout1Pattern(kind))) {
                List<String> migration = keys.layout1Migration(key, kind);
                jobs.putIfAbsent(migration.get(0), migration);
            }
        }
        int moved = 0;
        for (List<String> migration : jobs.values()) {
            Long answer = scripts.run(MIGRATE, ReturnType.INTEGER, migration, List.of());
            moved += answer != null && answer == 1L ? 1 : 0;
        }
        return moved;
    }

    private List<String> scan(String pattern) {
        ScanOptions options = ScanOptions.scanOptions().match(pattern).count(1000).build();
        List<String> found = new ArrayList<>();
        if (RedisEndpoints.mayBeCluster(scripts.connectionFactory())) {
            try (RedisClusterConnection cluster = scripts.connectionFactory().getClusterConnection()) {
                for (RedisClusterNode node : cluster.clusterGetNodes()) {
                    if (node.isMaster()) {
                        collect(cluster.scan(node, options), found);
                    }
                }
                return found;
            } catch (InvalidDataAccessApiUsageException notCluster) {
                // a factory that could not say whether it is cluster-aware, and is not: scanned below
            }
        }
        try (RedisConnection connection = scripts.connectionFactory().getConnection()) {
            collect(connection.keyCommands().scan(options), found);
        }
        return found;
    }

    private static void collect(Cursor<byte[]> cursor, List<String> into) {
        try (cursor) {
            cursor.forEachRemaining(key -> into.add(new String(key, StandardCharsets.UTF_8)));
        }
    }
}
