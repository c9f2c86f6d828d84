package io.jobguard.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides where the tests' Redis comes from. Never skips: when nothing is usable it throws an
 * {@link IllegalStateException} that says what to install.
 *
 * <p>Order, unless the system property {@value #SOURCE_PROPERTY} forces one source
 * ({@code path}, {@code docker}, {@code embedded}; default {@code auto}):
 * <ol>
 *   <li>{@link Source#PATH}: the binary named by the environment variable {@value #SERVER_ENV}, else
 *       {@code redis-server} on the {@code PATH};</li>
 *   <li>{@link Source#DOCKER}: a Testcontainers {@code redis:7} container when a Docker engine answers.
 *       A container is not controllable by this harness (no pause, no restart on the same port), so it
 *       only ever backs a {@link RedisEndpoint}, never a {@link RedisServerProcess};</li>
 *   <li>{@link Source#EMBEDDED}: the redis-server binary bundled in the embedded-redis jar, extracted and
 *       run as our own child process.</li>
 * </ol>
 * Every candidate binary must answer {@code --version} before it is chosen. Results are computed once
 * per JVM.
 */
public final class RedisBinary {

    /** System property forcing a source: {@code auto}, {@code path}, {@code docker} or {@code embedded}. */
    public static final String SOURCE_PROPERTY = "jobguard.test.redis.source";

    /** Environment variable naming a redis-server binary to use instead of the one on the PATH. */
    public static final String SERVER_ENV = "JOBGUARD_REDIS_SERVER";

    static final String INSTALL_HINT =
            "install redis-server (apt-get install redis-server) or Docker, or set JOBGUARD_TEST_REDIS_URL";

    private static final Logger log = LoggerFactory.getLogger(RedisBinary.class);

    private static Optional<Path> pathBinary;
    private static Optional<Path> embeddedBinary;
    private static Boolean docker;

    /** Where a Redis can come from. */
    public enum Source {
        /** A redis-server binary installed on this machine. */
        PATH,
        /** A Testcontainers {@code redis:7} container. */
        DOCKER,
        /** The binary shipped inside the embedded-redis jar. */
        EMBEDDED
    }

    private RedisBinary() {
    }

    /**
     * The redis-server executable for servers the harness must control (stop, pause, restart).
     *
     * @return an executable that answered {@code --version}
     * @throws IllegalStateException if no usable binary exists, or the forced source cannot provide one
     */
    public static Path executable() {
        String forced = forcedSource();
        List<String> tried = new ArrayList<>();
        if (forced.equals("auto") || forced.equals("path")) {
            Optional<Path> binary = fromPath();
            if (binary.isPresent()) {
                return binary.get();
            }
            tried.add("JOBGUARD_REDIS_SERVER / redis-server on PATH");
        }
        if (forced.equals("auto") || forced.equals("embedded")) {
            Optional<Path> binary = embedded();
            if (binary.isPresent()) {
                return binary.get();
            }
            tried.add("the binary bundled in embedded-redis");
        }
        if (forced.equals("docker")) {
            tried.add("nothing: " + SOURCE_PROPERTY + "=docker cannot back a controllable server");
        }
        throw new IllegalStateException("No redis-server executable for tests (tried " + String.join(", ", tried)
                + "); " + INSTALL_HINT);
    }

    /**
     * The source that backs a {@link RedisEndpoint}, which needs no control over the server.
     *
     * @return the first usable source in the documented order
     * @throws IllegalStateException if none is usable
     */
    public static Source endpointSource() {
        String forced = forcedSource();
        if ((forced.equals("auto") || forced.equals("path")) && fromPath().isPresent()) {
            return Source.PATH;
        }
        if ((forced.equals("auto") || forced.equals("docker")) && dockerAvailable()) {
            return Source.DOCKER;
        }
        if ((forced.equals("auto") || forced.equals("embedded")) && embedded().isPresent()) {
            return Source.EMBEDDED;
        }
        throw new IllegalStateException("No Redis for tests (" + SOURCE_PROPERTY + "=" + forced + "); "
                + INSTALL_HINT);
    }

    /**
     * The installed binary: {@value #SERVER_ENV} if set and usable, else {@code redis-server} on the PATH.
     *
     * @return the binary, or empty if none answers {@code --version}
     */
    public static synchronized Optional<Path> fromPath() {
        if (pathBinary == null) {
            pathBinary = findInstalled();
            pathBinary.ifPresent(p -> log.info("Tests use redis-server {}", p));
        }
        return pathBinary;
    }

    /**
     * The binary bundled in the embedded-redis jar, extracted to a temp file on first use.
     *
     * @return the binary, or empty if the jar is missing, has no binary for this platform, or it does not run
     */
    public static synchronized Optional<Path> embedded() {
        if (embeddedBinary == null) {
            embeddedBinary = extractEmbedded();
            embeddedBinary.ifPresent(p -> log.info("Tests use the redis-server bundled in embedded-redis: {}", p));
        }
        return embeddedBinary;
    }

    /**
     * Whether Testcontainers finds a Docker engine. Never throws, also without Testcontainers on the classpath.
     *
     * @return true if a container can be started
     */
    public static synchronized boolean dockerAvailable() {
        if (docker == null) {
            try {
                docker = DockerProbe.available();
            } catch (RuntimeException | LinkageError e) {
                log.debug("Docker probe failed", e);
                docker = false;
            }
        }
        return docker;
    }

    private static String forcedSource() {
        String value = System.getProperty(SOURCE_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        if (List.of("auto", "path", "docker", "embedded").contains(value)) {
            return value;
        }
        throw new IllegalStateException(SOURCE_PROPERTY + " must be auto, path, docker or embedded, not '"
                + value + "'");
    }

    private static Optional<Path> findInstalled() {
        String configured = System.getenv(SERVER_ENV);
        if (configured != null && !configured.isBlank()) {
            Path binary = Path.of(configured.trim());
            if (runs(binary)) {
                return Optional.of(binary);
            }
            log.warn("{}={} is not a working redis-server; looking further", SERVER_ENV, configured);
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate) && runs(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> extractEmbedded() {
        try {
            Path binary = EmbeddedRedisExecutable.extract();
            if (runs(binary)) {
                return Optional.of(binary);
            }
            log.warn("The redis-server bundled in embedded-redis does not run on this machine: {}", binary);
        } catch (IOException | RuntimeException | LinkageError e) {
            log.warn("Cannot use the redis-server bundled in embedded-redis: {}", e.toString());
        }
        return Optional.empty();
    }

    /** A binary counts only if it runs here; a wrong-libc or wrong-arch binary is rejected up front. */
    private static boolean runs(Path binary) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            return false;
        }
        Path output = null;
        try {
            // Output goes to a file, not a pipe, so a binary that hangs cannot block us past the timeout.
            output = Files.createTempFile("jobguard-redis-version", ".txt");
            Process process = new ProcessBuilder(binary.toString(), "--version")
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0
                    && Files.readString(output, StandardCharsets.UTF_8).contains("Redis server");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            deleteQuietly(output);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }
}
