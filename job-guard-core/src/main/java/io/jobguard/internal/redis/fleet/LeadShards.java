package io.jobguard.internal.redis.fleet;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.RedisEndpoints;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.JobId;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the fleet's leads hashes live ({@link FleetLeads}). A hash's lineage (when it was created) dates a loss of the
 * keys that live with it, so it must live on the server that holds the jobs it dates: on a single Redis (standalone,
 * Sentinel) that is one hash per key prefix; on Redis Cluster it is one hash per master, in a slot that master owns,
 * and a job's loss is dated only by the hash of the master that owned the job's slot both when the node saw the job's
 * previous epoch and when it judges the loss ({@link LossWindows}).
 *
 * <p>A shard is named by the hash tag of its hash ({@code ""} on a single Redis): the tag of the first slot its master
 * owns, so a replica promoted for the same slots keeps the shard's name. The cluster's topology is read at most once
 * per {@value FleetLeads#INTERVAL_MILLIS} ms, with the publication.
 */
public final class LeadShards {

    /** One leads hash: its shard name (a hash tag, {@code ""} on a single Redis) and its key. */
    record Shard(String name, String key) {
    }

    private final RedisConnectionFactory factory;
    private final KeySchema keys;
    private final Map<Integer, String> tags = new ConcurrentHashMap<>();
    private volatile boolean cluster;
    private volatile List<Shard> shards;
    /** On Redis Cluster: per slot, the shard of its owner as last read ({@code null} for a slot nobody owned). */
    private volatile String[] ownerBySlot;
    private volatile long readNanos;

    public LeadShards(RedisConnectionFactory factory, KeySchema keys) {
        this.factory = factory;
        this.keys = keys;
        this.cluster = RedisEndpoints.mayBeCluster(factory);
        this.shards = cluster ? null : List.of(new Shard("", keys.fleetLeads()));
    }

    /**
     * The leads hashes to publish to now; on Redis Cluster reads the topology when the last read is older than one
     * interval.
     *
     * @throws RuntimeException if the topology cannot be read (the publication fails as a store failure)
     */
    List<Shard> current() {
        if (cluster && (shards == null || System.nanoTime() - readNanos > FleetLeads.INTERVAL_MILLIS * 1_000_000L)) {
            refresh();
        }
        return shards;
    }

    /**
     * The shard whose hash lives with the job's keys, as of the last topology read: {@code ""} on a single Redis,
     * {@code null} when not known (no topology read yet, or the job's slot had no owner).
     */
    public String shardOf(JobId job) {
        if (!cluster) {
            return "";
        }
        String[] owners = ownerBySlot;
        return owners == null ? null : owners[ClusterSlotHashUtil.calculateSlot(keys.of(job, JobKey.STATE))];
    }

    private synchronized void refresh() {
        RedisClusterConnection connection;
        try {
            connection = factory.getClusterConnection();
        } catch (InvalidDataAccessApiUsageException e) {
            // a factory that could not say whether it is cluster-aware, and is not
            cluster = false;
            shards = List.of(new Shard("", keys.fleetLeads()));
            return;
        }
        try (connection) {
            String[] owners = new String[ClusterSlotHashUtil.SLOT_COUNT];
            List<Shard> read = new ArrayList<>();
            for (RedisClusterNode node : connection.clusterGetNodes()) {
                int[] slots = node.isMaster() && !node.getFlags().contains(RedisClusterNode.Flag.FAIL)
                        ? node.getSlotRange().getSlotsArray() : new int[0];
                if (slots.length == 0) {
                    continue;
                }
                int first = slots[0];
                for (int slot : slots) {
                    first = Math.min(first, slot);
                }
                String tag = tags.computeIfAbsent(first, LeadShards::tagOf);
                read.add(new Shard(tag, keys.fleetLeads(tag)));
                for (int slot : slots) {
                    owners[slot] = tag;
                }
            }
            if (read.isEmpty()) {
                throw new IllegalStateException("Redis Cluster reported no master that owns slots");
            }
            ownerBySlot = owners;
            shards = List.copyOf(read);
            readNanos = System.nanoTime();
        }
    }

    /** A short hash tag whose slot is {@code slot} (about 16,384 tries on average, once per slot). */
    public static String tagOf(int slot) {
        for (int i = 0; ; i++) {
            String tag = "s" + Integer.toString(i, 36);
            if (ClusterSlotHashUtil.calculateSlot(tag) == slot) {
                return tag;
            }
        }
    }
}
