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

/** The Redis a scenario runs against (started fresh per run, no persistence) and how nodes reach it. */
abstract class RedisSetup implements AutoCloseable {

    /** Spring Boot arguments that point a node at this Redis. */
    abstract List<String> springArgs();

    /** The server that takes writes now (for standalone: the only one). */
    abstract RedisServerProcess primary();

    @Override
    public abstract void close();

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

    static final class Standalone extends RedisSetup {
        private final RedisServerProcess server;

        Standalone(RedisServerProcess server) {
            this.server = server;
        }

        @Override
        List<String> springArgs() {
            return List.of("--spring.data.redis.host=" + server.host(), "--spring.data.redis.port=" + server.port());
        }

        @Override
        RedisServerProcess primary() {
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
     */
    static final class Sentinel extends RedisSetup {
        static final String MASTER = "faultmaster";
        private final RedisServerProcess first;
        private final RedisServerProcess second;
        private final Process sentinel;
        private final int sentinelPort;
        private final Path dir;

        private Sentinel(RedisServerProcess first, RedisServerProcess second, Process sentinel, int sentinelPort,
                         Path dir) {
            this.first = first;
            this.second = second;
            this.sentinel = sentinel;
            this.sentinelPort = sentinelPort;
            this.dir = dir;
        }

        static Sentinel start() {
            RedisServerProcess master = RedisServerProcess.start();
            RedisServerProcess replica = RedisServerProcess.start();
            Process process = null;
            try {
                replica.call("REPLICAOF", master.host(), Integer.toString(master.port()));
                await(Duration.ofSeconds(20), "the replica's link to the primary",
                        () -> ((String) replica.call("INFO", "replication")).contains("master_link_status:up"));
                Path dir = Files.createTempDirectory("fault-sentinel");
                Path config = dir.resolve("sentinel.conf");
                Files.writeString(config, String.join("\n",
                        "sentinel monitor " + MASTER + " " + master.host() + " " + master.port() + " 1",
                        "sentinel down-after-milliseconds " + MASTER + " 1000",
                        "sentinel failover-timeout " + MASTER + " 5000", ""), StandardCharsets.UTF_8);
                int port = freePort();
                process = new ProcessBuilder(RedisBinary.executable().toString(), config.toString(), "--sentinel",
                        "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("sentinel.log").toFile()).start();
                Sentinel setup = new Sentinel(master, replica, process, port, dir);
                await(Duration.ofSeconds(20), "Sentinel to see the replica",
                        () -> setup.sentinelCall("SENTINEL", "REPLICAS", MASTER) instanceof List<?> l && !l.isEmpty());
                return setup;
            } catch (IOException | RuntimeException e) {
                if (process != null) {
                    process.destroyForcibly();
                }
                replica.close();
                master.close();
                throw new IllegalStateException("cannot start primary, replica and Sentinel", e);
            }
        }

        Object sentinelCall(String... args) {
            try {
                return RespClient.once("127.0.0.1", sentinelPort, args);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        List<String> springArgs() {
            return List.of("--spring.data.redis.sentinel.master=" + MASTER,
                    "--spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinelPort);
        }

        @Override
        RedisServerProcess primary() {
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
            sentinel.destroyForcibly();
            second.close();
            first.close();
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temp directory left behind
            }
        }
    }

    static final class Cluster extends RedisSetup {
        private final RedisClusterProcess cluster;

        Cluster(RedisClusterProcess cluster) {
            this.cluster = cluster;
        }

        RedisClusterProcess cluster() {
            return cluster;
        }

        @Override
        List<String> springArgs() {
            return List.of("--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes()));
        }

        @Override
        RedisServerProcess primary() {
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
