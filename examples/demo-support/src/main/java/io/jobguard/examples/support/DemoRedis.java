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
            if (dockerAvailable()) {
                GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7"))
                        .withExposedPorts(6379);
                container.start();
                return new DemoRedis(container.getMappedPort(6379), "Testcontainers redis:7", container::stop);
            }
            redis.embedded.RedisServer server = new redis.embedded.RedisServer(port);
            server.start();
            awaitPort(port);
            return new DemoRedis(port, "embedded Redis binary (com.github.codemonstur:embedded-redis)", server::stop);
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

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
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
