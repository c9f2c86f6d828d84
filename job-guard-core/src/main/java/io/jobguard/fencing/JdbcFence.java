package io.jobguard.fencing;

import io.jobguard.RunContext;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Makes database writes conditional on a run's fencing token: call {@link #advance(Connection, String, long)}
 * in the SAME transaction as the writes it guards. It moves the resource's row in the fence table to the
 * token, and refuses (throws {@link StaleFencingTokenException}) when the table already holds a higher token.
 *
 * <p>Guarantee: once a transaction that advanced a resource to token {@code t} has committed, no transaction
 * advancing it with a token below {@code t} commits; a stale run (paused past its lease while a newer run
 * wrote) is refused even if its lease check passed just before the pause. Two transactions advancing the same
 * resource serialize on its row (the UPDATE takes the row lock until commit), so the check and the writes
 * commit together or not at all. The same token may advance a resource again (one run, several transactions).
 *
 * <p>The table ({@code resource} primary key, {@code token} bigint) is created with the DDL under
 * {@code io/jobguard/fencing/} ({@code fence-postgresql.sql}, {@code fence-mysql.sql}, {@code fence-h2.sql}).
 * Plain JDBC; works on any database whose transactions support savepoints (used only for the first write
 * of a resource, so that a concurrent insert does not abort the caller's transaction). Immutable and
 * thread-safe.
 */
public final class JdbcFence {

    /** The default table name. */
    public static final String DEFAULT_TABLE = "jobguard_fence";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    private final String update;
    private final String select;
    private final String insert;

    private JdbcFence(String table) {
        this.update = "UPDATE " + table + " SET token = ? WHERE resource = ? AND token <= ?";
        this.select = "SELECT token FROM " + table + " WHERE resource = ?";
        this.insert = "INSERT INTO " + table + " (resource, token) VALUES (?, ?)";
    }

    /**
     * A fence on the {@value #DEFAULT_TABLE} table.
     *
     * @return the fence
     */
    public static JdbcFence create() {
        return create(DEFAULT_TABLE);
    }

    /**
     * A fence on another table (same columns).
     *
     * @param table the table name, optionally schema-qualified
     * @return the fence
     * @throws IllegalArgumentException if {@code table} is not a plain SQL identifier
     */
    public static JdbcFence create(String table) {
        if (table == null || !IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("fence table must be a plain SQL identifier such as "
                    + DEFAULT_TABLE + " or schema." + DEFAULT_TABLE + ", got '" + table + "'");
        }
        return new JdbcFence(table);
    }

    /**
     * Advances {@code resource} to the fencing token of the guarded run on this thread.
     *
     * @param connection the connection of the transaction that does the writes
     * @param resource   what the writes touch (a table, an account, a file name)
     * @throws StaleFencingTokenException if a higher token has advanced the resource
     * @throws IllegalStateException      if the current thread runs no guarded run, or its store has no tokens
     * @throws SQLException               if the database fails
     */
    public void advance(Connection connection, String resource) throws SQLException {
        RunContext run = RunContext.current().orElseThrow(() -> new IllegalStateException(
                "JdbcFence.advance(connection, resource) needs a guarded run on this thread; pass the token"
                        + " explicitly from other threads"));
        advance(connection, resource, run.fencingToken());
    }

    /**
     * Advances {@code resource} to {@code token}, or refuses.
     *
     * @param connection the connection of the transaction that does the writes
     * @param resource   what the writes touch
     * @param token      the writer's fencing token ({@link RunContext#fencingToken()})
     * @throws StaleFencingTokenException if a higher token has advanced the resource
     * @throws IllegalArgumentException   if {@code token} is negative (a run without a fencing token)
     * @throws SQLException               if the database fails
     */
    public void advance(Connection connection, String resource, long token) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(resource, "resource");
        if (token < 0) {
            throw new IllegalArgumentException("fencing token must not be negative, got " + token
                    + " (an unguarded run, or a store without fencing tokens, cannot make fenced writes)");
        }
        if (update(connection, resource, token) == 1) {
            return;
        }
        Long current = current(connection, resource);
        if (current == null) {
            if (insert(connection, resource, token)) {
                return;
            }
            // Another transaction inserted the row first and has committed: compare with its token.
            if (update(connection, resource, token) == 1) {
                return;
            }
            current = current(connection, resource);
        }
        throw new StaleFencingTokenException(resource, token, current == null ? -1 : current);
    }

    private int update(Connection connection, String resource, long token) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            statement.setLong(1, token);
            statement.setString(2, resource);
            statement.setLong(3, token);
            return statement.executeUpdate();
        }
    }

    private Long current(Connection connection, String resource) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(select)) {
            statement.setString(1, resource);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getLong(1) : null;
            }
        }
    }

    /** @return {@code false} if the row exists already (a concurrent first write) */
    private boolean insert(Connection connection, String resource, long token) throws SQLException {
        boolean transactional = !connection.getAutoCommit();
        // A failed statement aborts a PostgreSQL transaction: the savepoint keeps the caller's work alive.
        Savepoint savepoint = transactional ? connection.setSavepoint() : null;
        try (PreparedStatement statement = connection.prepareStatement(insert)) {
            statement.setString(1, resource);
            statement.setLong(2, token);
            statement.executeUpdate();
            if (savepoint != null) {
                connection.releaseSavepoint(savepoint);
            }
            return true;
        } catch (SQLException e) {
            if (!isDuplicateKey(e)) {
                throw e;
            }
            if (savepoint != null) {
                connection.rollback(savepoint);
            }
            return false;
        }
    }

    private static boolean isDuplicateKey(SQLException e) {
        String state = e.getSQLState();
        // 23505 PostgreSQL/H2 unique violation, 23000 MySQL integrity constraint (duplicate entry)
        return state != null && (state.equals("23505") || state.equals("23000"));
    }
}
