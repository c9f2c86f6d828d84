package io.jobguard.examples.support;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A Redis for the demos, from the first source that works: {@code redis-server} on PATH, a
 * {@code redis:7} container when a Docker engine is present, else the Redis binary that the
 * {@code embedded-redis} package ships. Stopped by {@link #close()}.
 */
public final class DemoRedis implements AutoCloseable {

    private final int port;
    private final String source;
    private final AutoCloseable stopper;

    private DemoRedis(int port, String source, AutoCloseable stopper) {
        this.port = port;
        this.source = source;
        this.stopper = stopper;
    }

    /**
     * Starts a Redis on a free loopback port.
     *
     * @return the running Redis
     * @throws IllegalStateException if no source works, naming what to install
     */
    public static DemoRedis start() {
        int port = freePort();
        Path binary = onPath("redis-server");
        try {
            if (binary != null) {
                Path dir = Files.createTempDirectory("jobguard-demo-redis");
                Process process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
                awaitPort(port);
                return new DemoRedis(port, "redis-server on PATH (" + binary + ")", () -> {
                    process.destroy();
                    process.waitFor();
                });
            }
            String noDocker = dockerEngineMissing();
            if (noDocker == null && dockerAvailable()) {
                GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7"))
                        .withExposedPorts(6379);
                container.start();
                return new DemoRedis(container.getMappedPort(6379), "Testcontainers redis:7 (no redis-server on PATH)",
                        container::stop);
            }
            redis.embedded.RedisServer server = new redis.embedded.RedisServer(port);
            server.start();
            awaitPort(port);
            return new DemoRedis(port, "embedded Redis binary (com.github.codemonstur:embedded-redis); no redis-server "
                    + "on PATH, " + (noDocker == null ? "Docker engine did not answer" : noDocker), server::stop);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the demo could not start a Redis: install redis-server "
                    + "(apt-get install redis-server) or Docker", e);
        }
    }

    /**
     * Returns the port.
     *
     * @return the port on 127.0.0.1
     */
    public int port() {
        return port;
    }

    /**
     * Returns where the Redis came from.
     *
     * @return a description of the source
     */
    public String source() {
        return source;
    }

    @Override
    public void close() {
        try {
            stopper.close();
        } catch (Exception e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A free loopback port.
     *
     * @return a port nobody listens on now
     */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /**
     * Why there is certainly no Docker engine, or null when there may be one. Testcontainers logs an
     * ERROR block when it finds none, so it is asked only when an engine could exist.
     */
    private static String dockerEngineMissing() {
        String host = System.getenv("DOCKER_HOST");
        if (host != null && !host.isBlank()) {
            return null;
        }
        List<Path> sockets = List.of(Path.of("/var/run/docker.sock"),
                Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"),
                Path.of(System.getProperty("user.home"), ".testcontainers.properties"));
        for (Path socket : sockets) {
            if (Files.exists(socket)) {
                return null;
            }
        }
        return "no Docker engine (DOCKER_HOST unset, no /var/run/docker.sock)";
    }

    private static boolean dockerAvailable() {
        // the probe's own logging (an ERROR block when the engine does not answer) is noise here:
        // the demo says in one line which Redis it used
        org.slf4j.Logger testcontainers = org.slf4j.LoggerFactory.getLogger("org.testcontainers");
        ch.qos.logback.classic.Level before = null;
        if (testcontainers instanceof ch.qos.logback.classic.Logger logback) {
            before = logback.getLevel();
            logback.setLevel(ch.qos.logback.classic.Level.OFF);
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        } finally {
            if (testcontainers instanceof ch.qos.logback.classic.Logger logback) {
                logback.setLevel(before);
            }
        }
    }

    private static Path onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static void awaitPort(int port) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                if (probe.isConnected()) {
                    return;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }
}
