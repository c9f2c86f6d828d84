package io.jobguard.examples.fault;

import io.jobguard.testing.RedisBinary;
import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.RespClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The Redis a scenario runs against (started fresh per run, no persistence) and how nodes reach it:
 * a {@link Standalone} server, a {@link Sentinel} pair or a {@link Cluster}.
 */
sealed interface RedisSetup extends AutoCloseable {

    /** Spring Boot arguments that point a node at this Redis. */
    List<String> springArgs();

    /** The server that takes writes now (for standalone: the only one). */
    RedisServerProcess primary();

    @Override
    void close();

    static RedisSetup startStandalone() {
        return new Standalone(RedisServerProcess.start());
    }

    static RedisSetup startSentinel() {
        return Sentinel.start();
    }

    static RedisSetup startCluster() {
        return new Cluster(RedisClusterProcess.start());
    }

    static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                // not yet
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
        throw new IllegalStateException(what + " did not happen within " + timeout.toSeconds() + " s");
    }

    /**
     * One server.
     *
     * @param server the server
     */
    record Standalone(RedisServerProcess server) implements RedisSetup {

        @Override
        public List<String> springArgs() {
            return List.of("--spring.data.redis.host=" + server.host(), "--spring.data.redis.port=" + server.port());
        }

        @Override
        public RedisServerProcess primary() {
            return server;
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /**
     * Primary, replica and one Sentinel (quorum 1, primary down after 1 s). The harness's own
     * {@code RedisSentinelProcess} does not expose the Sentinel's port or the replica, which the
     * failover-with-lost-writes scenario needs, so this builds the same topology from plain servers.
     *
     * @param first    the server that starts as the primary
     * @param second   the server that starts as its replica
     * @param sentinel the Sentinel watching them
     */
    record Sentinel(RedisServerProcess first, RedisServerProcess second, SentinelProcess sentinel)
            implements RedisSetup {

        static final String MASTER = "faultmaster";

        static Sentinel start() {
            RedisServerProcess master = RedisServerProcess.start();
            RedisServerProcess replica = RedisServerProcess.start();
            SentinelProcess sentinel = null;
            try {
                replica.call("REPLICAOF", master.host(), Integer.toString(master.port()));
                await(Duration.ofSeconds(20), "the replica's link to the primary",
                        () -> ((String) replica.call("INFO", "replication")).contains("master_link_status:up"));
                sentinel = SentinelProcess.start(master);
                Sentinel setup = new Sentinel(master, replica, sentinel);
                await(Duration.ofSeconds(20), "Sentinel to see the replica",
                        () -> setup.sentinelCall("SENTINEL", "REPLICAS", MASTER) instanceof List<?> l && !l.isEmpty());
                return setup;
            } catch (IOException | RuntimeException e) {
                if (sentinel != null) {
                    sentinel.process().destroyForcibly();
                }
                replica.close();
                master.close();
                throw new IllegalStateException("cannot start primary, replica and Sentinel", e);
            }
        }

        Object sentinelCall(String... args) {
            try {
                return RespClient.once("127.0.0.1", sentinel.port(), args);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public List<String> springArgs() {
            return List.of("--spring.data.redis.sentinel.master=" + MASTER,
                    "--spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinel.port());
        }

        @Override
        public RedisServerProcess primary() {
            Object reply = sentinelCall("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER);
            if (reply instanceof List<?> address && address.size() == 2) {
                return Integer.parseInt(String.valueOf(address.get(1))) == first.port() ? first : second;
            }
            throw new IllegalStateException("Sentinel names no primary: " + reply);
        }

        RedisServerProcess replica() {
            return primary() == first ? second : first;
        }

        @Override
        public void close() {
            sentinel.process().destroyForcibly();
            second.close();
            first.close();
            sentinel.deleteDir();
        }
    }

    /**
     * The Sentinel of {@link Sentinel}.
     *
     * @param process the {@code redis-server --sentinel} process
     * @param port    its port
     * @param dir     its directory: configuration (which Sentinel rewrites) and log
     */
    record SentinelProcess(Process process, int port, Path dir) {

        static SentinelProcess start(RedisServerProcess master) throws IOException {
            Path dir = Files.createTempDirectory("fault-sentinel");
            Path config = dir.resolve("sentinel.conf");
            Files.writeString(config, String.join("\n",
                    "sentinel monitor " + Sentinel.MASTER + " " + master.host() + " " + master.port() + " 1",
                    "sentinel down-after-milliseconds " + Sentinel.MASTER + " 1000",
                    "sentinel failover-timeout " + Sentinel.MASTER + " 5000", ""), StandardCharsets.UTF_8);
            int port = freePort();
            Process process = new ProcessBuilder(RedisBinary.executable().toString(), config.toString(), "--sentinel",
                    "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("sentinel.log").toFile()).start();
            return new SentinelProcess(process, port, dir);
        }

        void deleteDir() {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temp directory left behind
            }
        }
    }

    /**
     * A Redis Cluster.
     *
     * @param cluster its masters and replicas
     */
    record Cluster(RedisClusterProcess cluster) implements RedisSetup {

        @Override
        public List<String> springArgs() {
            return List.of("--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes()));
        }

        @Override
        public RedisServerProcess primary() {
            return cluster.masters().get(0);
        }

        @Override
        public void close() {
            cluster.close();
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
