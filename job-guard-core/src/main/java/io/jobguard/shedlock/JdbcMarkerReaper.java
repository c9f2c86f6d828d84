package io.jobguard.shedlock;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Calendar;
import java.util.Objects;
import java.util.TimeZone;
import java.util.regex.Pattern;

/**
 * A {@link MarkerReaper} for ShedLock's JDBC providers ({@code JdbcTemplateLockProvider}, {@code JdbcLockProvider}):
 * {@code DELETE FROM <table> WHERE name LIKE '<prefix>%' AND lock_until < ?}, in its own auto-committed statement.
 * The time zone must be the one the provider writes {@code lock_until} in (ShedLock's JdbcTemplate provider:
 * {@code withTimeZone}, UTC here by default).
 */
public final class JdbcMarkerReaper implements MarkerReaper {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    private final DataSource dataSource;
    private final String delete;
    private final TimeZone timeZone;

    private JdbcMarkerReaper(DataSource dataSource, String table, TimeZone timeZone) {
        this.dataSource = dataSource;
        this.delete = "DELETE FROM " + table + " WHERE name LIKE ? ESCAPE '!' AND lock_until < ?";
        this.timeZone = timeZone;
    }

    /**
     * A reaper for a lock table whose times are in UTC.
     *
     * @param dataSource the database of the lock table
     * @param table      the lock table ({@code shedlock} by default in ShedLock)
     * @return the reaper
     */
    public static JdbcMarkerReaper create(DataSource dataSource, String table) {
        return create(dataSource, table, TimeZone.getTimeZone("UTC"));
    }

    /**
     * A reaper for a lock table whose times are in another zone.
     *
     * @param dataSource the database of the lock table
     * @param table      the lock table
     * @param timeZone   the zone the provider writes {@code lock_until} in
     * @return the reaper
     * @throws IllegalArgumentException if {@code table} is not a plain SQL identifier
     */
    public static JdbcMarkerReaper create(DataSource dataSource, String table, TimeZone timeZone) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(timeZone, "timeZone");
        if (table == null || !IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("ShedLock table must be a plain SQL identifier such as shedlock, got '"
                    + table + "'");
        }
        return new JdbcMarkerReaper(dataSource, table, timeZone);
    }

    @Override
    public int deleteExpired(String namePrefix, Instant expiredBefore) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(delete)) {
            statement.setString(1, escape(namePrefix) + "%");
            statement.setTimestamp(2, Timestamp.from(expiredBefore), Calendar.getInstance(timeZone));
            int deleted = statement.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            return deleted;
        } catch (SQLException e) {
            throw new IllegalStateException("job-guard could not delete expired fire-time markers: " + e.getMessage(), e);
        }
    }

    private static String escape(String prefix) {
        return prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }
}
