package io.jobguard.benchmarks;

import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A Redis Cluster of M masters (no replicas) made of {@code redis-server} processes on free loopback
 * ports, with the slots split as {@code redis-cli --cluster create} splits them; stopped by
 * {@link #close()}. Each master has its own admin connection for {@code INFO}, {@code SLOWLOG} and
 * {@code CONFIG}.
 */
final class LocalRedisCluster implements AutoCloseable {

    private static final int SLOTS = 16_384;

    private final List<Process> processes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private final RedisClient client = RedisClient.create();
    private final List<StatefulRedisConnection<String, String>> admin = new ArrayList<>();

    private LocalRedisCluster() {
    }

    /**
     * Starts and forms the cluster.
     *
     * @param masters how many masters
     * @return the healthy cluster
     * @throws IOException if a server cannot be started
     */
    static LocalRedisCluster start(int masters) throws IOException {
        LocalRedisCluster cluster = new LocalRedisCluster();
        try {
            Path dir = Files.createTempDirectory("jobguard-bench-cluster");
            for (int i = 0; i < masters; i++) {
                int port = freeClusterPort();
                cluster.ports.add(port);
                cluster.processes.add(new ProcessBuilder("redis-server", "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                        "--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
                        "--cluster-node-timeout", "5000",
                        // a lone master learns its own address only from a peer's MEET and lists itself as
                        // ":port" until then, which Redisson cannot connect to: a 1-master cluster announces it
                        "--cluster-announce-ip", "127.0.0.1")
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis-" + port + ".log").toFile()).start());
            }
            for (int port : cluster.ports) {
                cluster.admin.add(connect(cluster.client, port));
            }
            cluster.form();
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private static StatefulRedisConnection<String, String> connect(RedisClient client, int port) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return client.connect(RedisURI.create("127.0.0.1", port));
            } catch (RuntimeException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
        }
    }

    private void form() {
        int m = admin.size();
        for (int i = 0; i < m; i++) {
            RedisCommands<String, String> node = admin.get(i).sync();
            node.clusterAddSlotsRange(Range.create((int) Math.round(i * (double) SLOTS / m),
                    (int) Math.round((i + 1) * (double) SLOTS / m) - 1));
            node.clusterSetConfigEpoch(i + 1);
        }
        for (int i = 1; i < m; i++) {
            admin.get(0).sync().clusterMeet("127.0.0.1", ports.get(i));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!admin.stream().allMatch(c -> {
            String info = c.sync().clusterInfo();
            return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + m);
        })) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the " + m + "-master cluster did not become healthy in 30 s");
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    /** Nodes as {@code host:port}, for a cluster client. */
    List<String> nodes() {
        return ports.stream().map(p -> "127.0.0.1:" + p).toList();
    }

    /** The admin commands of each master, in slot order. */
    List<RedisCommands<String, String>> masters() {
        return admin.stream().map(StatefulRedisConnection::sync).toList();
    }

    /** A port whose cluster bus port (+10,000) is free too. */
    private static int freeClusterPort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket socket = new ServerSocket(0)) {
                int port = socket.getLocalPort();
                if (port + 10_000 <= 65_535) {
                    try (ServerSocket bus = new ServerSocket(port + 10_000)) {
                        return port;
                    } catch (IOException busTaken) {
                        // try another port
                    }
                }
            }
        }
        throw new IOException("no free port pair (port, port + 10000) found");
    }

    @Override
    public void close() {
        admin.forEach(StatefulRedisConnection::close);
        client.shutdown();
        for (Process process : processes) {
            process.destroy();
        }
        for (Process process : processes) {
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
