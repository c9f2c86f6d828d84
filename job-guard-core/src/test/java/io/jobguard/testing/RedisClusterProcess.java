package io.jobguard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A three-master Redis Cluster (no replicas) of real redis-server processes on free loopback ports.
 *
 * <p>Guarantees: when {@link #start()} returns, every node reports {@code cluster_state:ok}, knows all three
 * nodes and sees all 16384 slots served; the slots are split 0-5460, 5461-10922, 10923-16383 in the order of
 * {@link #masters()}. The cluster is formed with plain CLUSTER commands (ADDSLOTS, SET-CONFIG-EPOCH, MEET), so
 * no redis-cli is needed. {@link #close()} kills every node and deletes their directories.
 */
public final class RedisClusterProcess implements AutoCloseable {

    /** Number of hash slots in every Redis Cluster. */
    public static final int SLOTS = 16384;

    /** Masters of {@link #start()}. */
    private static final int MASTERS = 3;
    private static final int ADDSLOTS_BATCH = 1000;
    private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(20);

    private final List<RedisServerProcess> masters;

    private RedisClusterProcess(List<RedisServerProcess> masters) {
        this.masters = List.copyOf(masters);
    }

    /**
     * Starts a cluster with the binary chosen by {@link RedisBinary#executable()}.
     *
     * @return the formed cluster
     * @throws IllegalStateException if there is no usable binary or the cluster does not form in time
     */
    public static RedisClusterProcess start() {
        return start(RedisBinary.executable());
    }

    /**
     * Starts a cluster with the given binary.
     *
     * @param executable a redis-server binary
     * @return the formed cluster
     * @throws IllegalStateException if the cluster does not form in time
     */
    public static RedisClusterProcess start(Path executable) {
        return start(executable, MASTERS);
    }

    /**
     * Starts a cluster of the given number of masters (no replicas), the slots split as
     * {@code redis-cli --cluster create} splits them.
     *
     * @param executable a redis-server binary
     * @param masterCount how many masters (1 or more)
     * @return the formed cluster
     * @throws IllegalStateException if the cluster does not form in time
     */
    public static RedisClusterProcess start(Path executable, int masterCount) {
        List<RedisServerProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masterCount; i++) {
                nodes.add(RedisServerProcess.start(executable, FreePorts::withClusterBus, port -> List.of(
                        "--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes-" + port + ".conf",
                        "--cluster-node-timeout", "2000")));
            }
            RedisClusterProcess cluster = new RedisClusterProcess(nodes);
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisServerProcess::close);
            throw e;
        }
    }

    /**
     * The nodes' addresses, as cluster clients expect them.
     *
     * @return {@code host:port} of each master
     */
    public List<String> nodes() {
        return masters.stream().map(node -> node.host() + ":" + node.port()).collect(Collectors.toUnmodifiableList());
    }

    /**
     * The master processes, in slot order, for tests that stop or pause a single node.
     *
     * @return the masters
     */
    public List<RedisServerProcess> masters() {
        return masters;
    }

    /**
     * The master that owns a key's slot: the one that answers for the key without a redirection.
     *
     * @param key the key
     * @return its master
     * @throws IllegalStateException if no master answers for it
     */
    public RedisServerProcess masterOf(String key) {
        for (RedisServerProcess master : masters) {
            try {
                master.call("EXISTS", key);
                return master;
            } catch (RuntimeException moved) {
                // another master owns the slot
            }
        }
        throw new IllegalStateException("no master answers for " + key);
    }

    /**
     * A new, started cluster connection factory with {@link RedisEndpoint#DEFAULT_COMMAND_TIMEOUT}; the caller
     * destroys it.
     *
     * @return the started factory
     */
    public LettuceConnectionFactory connectionFactory() {
        return connectionFactory(RedisEndpoint.DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * A new, started cluster connection factory; the caller destroys it.
     *
     * @param commandTimeout how long a command may take before it fails with a timeout
     * @return the started factory
     */
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        return ConnectionFactories.cluster(new RedisClusterConfiguration(nodes()), commandTimeout);
    }

    /**
     * A new, started, pooled Jedis cluster connection factory; the caller destroys it.
     *
     * @return the started factory
     */
    public JedisConnectionFactory jedisConnectionFactory() {
        return ConnectionFactories.jedisCluster(new RedisClusterConfiguration(nodes()),
                RedisEndpoint.DEFAULT_COMMAND_TIMEOUT);
    }

    /** Deletes every key on every master. */
    public void flushAll() {
        masters.forEach(RedisServerProcess::flushAll);
    }

    /**
     * Calls per command, summed over the masters.
     *
     * @return lower-case command name to call count
     */
    public Map<String, Long> commandStats() {
        Map<String, Long> total = new TreeMap<>();
        for (RedisServerProcess master : masters) {
            master.commandStats().forEach((command, calls) -> total.merge(command, calls, Long::sum));
        }
        return Collections.unmodifiableMap(total);
    }

    /** Zeroes the command statistics on every master. */
    public void resetStats() {
        masters.forEach(RedisServerProcess::resetStats);
    }

    /**
     * Resumes paused masters and restarts stopped ones (they rejoin from their nodes.conf), then waits until
     * the cluster is healthy again.
     *
     * @throws IllegalStateException if it does not recover in time
     */
    public void ensureRunning() {
        boolean changed = false;
        for (RedisServerProcess master : masters) {
            changed |= !master.isRunning() || master.isPaused();
            master.ensureRunning();
        }
        if (changed) {
            awaitHealthy();
        }
    }

    /** Kills every node. */
    @Override
    public void close() {
        masters.forEach(RedisServerProcess::close);
    }

    @Override
    public String toString() {
        return "RedisClusterProcess" + nodes();
    }

    private void form() {
        int count = masters.size();
        for (int i = 0; i < count; i++) {
            RedisServerProcess node = masters.get(i);
            // redis-cli's split: master i owns [round(i * 16384 / n), round((i + 1) * 16384 / n) - 1].
            addSlots(node, (int) Math.round(i * (double) SLOTS / count),
                    (int) Math.round((i + 1) * (double) SLOTS / count) - 1);
            // Distinct epochs up front spare the nodes the epoch-collision dance after MEET.
            admin(node, "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
        }
        RedisServerProcess first = masters.get(0);
        for (RedisServerProcess other : masters.subList(1, count)) {
            admin(first, "CLUSTER", "MEET", other.host(), Integer.toString(other.port()));
        }
        awaitHealthy();
    }

    private void awaitHealthy() {
        if (!Poll.until(FORMATION_TIMEOUT, () -> masters.stream().allMatch(node -> healthy(node, masters.size())))) {
            StringBuilder state = new StringBuilder("Redis Cluster did not become healthy within ")
                    .append(FORMATION_TIMEOUT.toSeconds()).append(" s");
            for (RedisServerProcess node : masters) {
                state.append(System.lineSeparator()).append("--- ").append(node).append(" CLUSTER INFO:")
                        .append(System.lineSeparator()).append(clusterInfo(node))
                        .append("--- log:").append(System.lineSeparator()).append(node.log());
            }
            throw new IllegalStateException(state.toString());
        }
    }

    private static boolean healthy(RedisServerProcess node, int knownNodes) {
        String info = clusterInfo(node);
        return info.contains("cluster_state:ok")
                && info.contains("cluster_slots_ok:" + SLOTS)
                && info.contains("cluster_known_nodes:" + knownNodes);
    }

    private static String clusterInfo(RedisServerProcess node) {
        try {
            return (String) RespClient.once(node.host(), node.port(), "CLUSTER", "INFO");
        } catch (IOException e) {
            return "(unreachable: " + e + ")" + System.lineSeparator();
        }
    }

    /** ADDSLOTS rather than ADDSLOTSRANGE: the bundled embedded binary is Redis 6.2. */
    private static void addSlots(RedisServerProcess node, int first, int last) {
        for (int batchStart = first; batchStart <= last; batchStart += ADDSLOTS_BATCH) {
            int batchEnd = Math.min(last, batchStart + ADDSLOTS_BATCH - 1);
            List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = batchStart; slot <= batchEnd; slot++) {
                args.add(Integer.toString(slot));
            }
            admin(node, args.toArray(new String[0]));
        }
    }

    private static void admin(RedisServerProcess node, String... args) {
        try {
            RespClient.once(node.host(), node.port(), args);
        } catch (IOException e) {
            // Only the command name: an ADDSLOTS batch would make a thousand-number message.
            throw new UncheckedIOException(args[0] + " " + args[1] + " failed on " + node, e);
        }
    }
}
