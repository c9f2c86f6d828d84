package io.jobguard.shedlock;

import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.LongSuite;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bounded rows: fire times through the ShedLock bridge on ShedLock's JDBC provider (H2) leave a bounded number of
 * rows with a {@link JdbcMarkerReaper} (1,000 fire times in {@code mvn verify}, 10,000 in the long suite,
 * {@link LongSuite}), and one row per fire time without. The store's
 * clock moves one minute per fire time, so markers expire by that clock, not by waiting.
 */
class ShedLockMarkerRowsIT {

    private static final int FIRE_TIMES = 10_000;
    private static final String TABLE = "shedlock";

    @Test
    @LongSuite
    void withAReaperTenThousandFireTimesLeaveABoundedNumberOfRows() {
        JdbcDataSource db = database();
        // Markers live lease + retention (40 s) and go a minute after that: at most REAP_EVERY + 3 rows remain.
        assertThat(runFireTimes(db, true, FIRE_TIMES)).isLessThan(2 * ShedLockLeaseStore.REAP_EVERY);
    }

    /** The bound of the case above over a tenth of the fire times, as many as leave a row each without a reaper. */
    @Test
    void withAReaperAThousandFireTimesLeaveABoundedNumberOfRows() {
        JdbcDataSource db = database();
        assertThat(runFireTimes(db, true, FIRE_TIMES / 10)).isLessThan(2 * ShedLockLeaseStore.REAP_EVERY);
    }

    @Test
    void withoutAReaperEveryFireTimeLeavesARow() {
        JdbcDataSource db = database();
        // a tenth of the fire times is enough to show the growth, at a tenth of the cost
        assertThat(runFireTimes(db, false, FIRE_TIMES / 10)).isGreaterThanOrEqualTo(FIRE_TIMES / 10);
    }

    @Test
    void theReaperDeletesOnlyExpiredMarkersOfTheJob() {
        JdbcDataSource db = database();
        JdbcTemplate jdbc = new JdbcTemplate(db);
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        insert(jdbc, "ns:job:fired:1", now.minusSeconds(120));
        insert(jdbc, "ns:job:fired:2", now.plusSeconds(120));
        insert(jdbc, "ns:job:run", now.minusSeconds(120));
        insert(jdbc, "ns:jobX:fired:1", now.minusSeconds(120));
        insert(jdbc, "ns:job_fired:1", now.minusSeconds(120)); // '_' is not a LIKE wildcard here
        assertThat(JdbcMarkerReaper.create(db, TABLE).deleteExpired("ns:job:fired:", now)).isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT name FROM " + TABLE, String.class))
                .containsExactlyInAnyOrder("ns:job:fired:2", "ns:job:run", "ns:job_fired:1", "ns:jobX:fired:1");
    }

    private static long runFireTimes(JdbcDataSource db, boolean reap, int fireTimes) {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-23T00:00:00Z"));
        // ShedLock's JDBC provider compares lock_until with its own clock: the test moves both together.
        ClockProvider.setClock(clock);
        try {
            return runFireTimes(db, reap, fireTimes, clock);
        } finally {
            ClockProvider.setClock(Clock.systemUTC());
        }
    }

    private static long runFireTimes(JdbcDataSource db, boolean reap, int fireTimes, MutableClock clock) {
        JdbcTemplateLockProvider provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(db)).withTableName(TABLE).withLockedByValue("node")
                .build()); // ShedLock writes lock_until in UTC by default, as the reaper reads it
        ShedLockLeaseStore store = reap
                ? ShedLockLeaseStore.create(provider, clock, Duration.ofSeconds(1), JdbcMarkerReaper.create(db, TABLE))
                : ShedLockLeaseStore.create(provider, clock, Duration.ofSeconds(1));
        JobId job = new JobId("ns", "every-minute");
        Instant t = clock.instant();
        for (int i = 0; i < fireTimes; i++) {
            RunLeaseRequest request = new RunLeaseRequest(job, t, UUID.randomUUID().toString(), "node",
                    Duration.ofSeconds(30), Duration.ofSeconds(10), 0);
            assertThat(store.acquireRun(request).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
            assertThat(store.releaseRun(request, Duration.ZERO)).isTrue();
            t = t.plusSeconds(60);
            clock.now = t;
        }
        // The marker of the last fire time is still alive (one second after it) and still refuses it.
        clock.now = t.minusSeconds(59);
        RunLeaseRequest again = new RunLeaseRequest(job, t.minusSeconds(60), UUID.randomUUID().toString(), "node",
                Duration.ofSeconds(30), Duration.ofSeconds(10), 0);
        assertThat(store.acquireRun(again).status()).isEqualTo(AcquireResult.Status.ALREADY_RAN);
        Long rows = new JdbcTemplate(db).queryForObject("SELECT count(*) FROM " + TABLE, Long.class);
        return rows == null ? -1 : rows;
    }

    private static JdbcDataSource database() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:rows-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        new JdbcTemplate(h2).execute("CREATE TABLE " + TABLE + " (name VARCHAR(255) NOT NULL, lock_until TIMESTAMP NOT NULL,"
                + " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
        return h2;
    }

    private static void insert(JdbcTemplate jdbc, String name, Instant until) {
        jdbc.update("INSERT INTO " + TABLE + " VALUES (?, ?, ?, 'x')", name,
                java.sql.Timestamp.valueOf(until.atZone(ZoneOffset.UTC).toLocalDateTime()),
                java.sql.Timestamp.valueOf(until.atZone(ZoneOffset.UTC).toLocalDateTime()));
    }

    /** The store's clock, moved by the test. */
    private static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
