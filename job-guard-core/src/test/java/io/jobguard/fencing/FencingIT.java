package io.jobguard.fencing;

import io.jobguard.testing.PostgresProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Fenced writes against a real PostgreSQL (started by the harness), H2 and a real redis-server. */
@WithRedis
class FencingIT {

    private static PostgresProcess postgres;
    private final JdbcFence fence = JdbcFence.create();

    @BeforeAll
    static void startPostgres() {
        postgres = PostgresProcess.start();
        postgres.execute(ddl("postgresql"), "CREATE TABLE IF NOT EXISTS ledger (entry VARCHAR(100), token BIGINT)");
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void empty() {
        postgres.execute("DELETE FROM jobguard_fence", "DELETE FROM ledger");
    }

    @Test
    void aLowerTokenIsRefusedAndItsTransactionsWritesRollBack() throws Exception {
        assertThat(writeInTransaction("daily", 5, "first run")).isTrue();
        assertThat(writeInTransaction("daily", 6, "next run")).isTrue();
        assertThatThrownBy(() -> writeInTransaction("daily", 5, "stale run"))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining("daily").hasMessageContaining("5").hasMessageContaining("6")
                .satisfies(e -> {
                    StaleFencingTokenException stale = (StaleFencingTokenException) e;
                    assertThat(stale.presentedToken()).isEqualTo(5);
                    assertThat(stale.currentToken()).isEqualTo(6);
                });
        assertThat(fenceToken("daily")).isEqualTo(6);
        assertThat(ledger()).isEqualTo(2);
        // The same run may write again (several transactions of one run share its token).
        assertThat(writeInTransaction("daily", 6, "next run, second batch")).isTrue();
    }

    @Test
    void writersOfOneResourceSerializeOnItsRowSoTheStaleOneIsRefusedAfterTheNewerCommits() throws Exception {
        writeInTransaction("orders", 1, "seed");
        try (Connection newer = transaction()) {
            fence.advance(newer, "orders", 8);
            insertLedger(newer, "newer", 8);
            // The stale writer blocks on the row the newer one holds, and is refused once it commits.
            CompletableFuture<Throwable> stale = CompletableFuture.supplyAsync(() -> {
                try (Connection c = transaction()) {
                    fence.advance(c, "orders", 7);
                    insertLedger(c, "stale", 7);
                    c.commit();
                    return null;
                } catch (Exception e) {
                    return e;
                }
            });
            awaitALockWaiter();
            assertThat(stale).isNotDone();
            newer.commit();
            assertThat(stale.get(20, TimeUnit.SECONDS)).isInstanceOf(StaleFencingTokenException.class);
        }
        assertThat(fenceToken("orders")).isEqualTo(8);
        assertThat(ledger()).isEqualTo(2);
    }

    @Test
    void concurrentFirstWritesOfANewResourceKeepTheLosersTransactionUsable() throws Exception {
        try (Connection first = transaction()) {
            fence.advance(first, "fresh", 3);
            CompletableFuture<Object> second = CompletableFuture.supplyAsync(() -> {
                try (Connection c = transaction()) {
                    insertLedger(c, "written before the fence", 9);
                    fence.advance(c, "fresh", 9); // its INSERT waits, fails as a duplicate, and falls back to UPDATE
                    insertLedger(c, "written after the fence", 9);
                    c.commit();
                    return "committed";
                } catch (Exception e) {
                    return e;
                }
            });
            awaitALockWaiter();
            first.commit();
            assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo("committed");
        }
        assertThat(fenceToken("fresh")).isEqualTo(9);
        assertThat(ledger()).isEqualTo(2);
    }

    @Test
    void negativeTokensAndOddTableNamesAreRejectedUpFront() throws Exception {
        try (Connection c = transaction()) {
            assertThatThrownBy(() -> fence.advance(c, "x", -1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1");
        }
        assertThatThrownBy(() -> JdbcFence.create("fence; DROP TABLE x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fence table");
        assertThatThrownBy(() -> fence.advance(postgres.connect(), "x"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("guarded run");
    }

    @Test
    void theH2DdlWorksWithTheSameFence() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:fence;DB_CLOSE_DELAY=-1")) {
            try (Statement s = c.createStatement()) {
                s.execute(ddl("h2"));
            }
            c.setAutoCommit(false);
            fence.advance(c, "h2", 4);
            c.commit();
            fence.advance(c, "h2", 5);
            c.commit();
            assertThatThrownBy(() -> fence.advance(c, "h2", 4)).isInstanceOf(StaleFencingTokenException.class);
            c.rollback();
        }
    }

    @Test
    void redisFenceWritesOnlyForTheHighestToken(RedisServerProcess redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        try {
            RedisFence redisFence = RedisFence.create(factory);
            redisFence.set("report", 5, "report:{report}", "from run 5", Duration.ZERO);
            redisFence.set("report", 6, "report:{report}", "from run 6", Duration.ofMinutes(1));
            assertThatThrownBy(() -> redisFence.set("report", 5, "report:{report}", "stale", Duration.ZERO))
                    .isInstanceOf(StaleFencingTokenException.class).hasMessageContaining("6");
            assertThat(redis.call("GET", "report:{report}")).isEqualTo("from run 6");
            assertThat(redis.call("GET", redisFence.fenceKey("report"))).isEqualTo("6");
        } finally {
            factory.destroy();
        }
    }

    @Test
    void redisFenceRefusesTheKeyPrefixesEveryOtherRedisComponentRefuses(RedisServerProcess redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        try {
            // the one key-prefix rule (Names.keyPrefix) the Redis store, batch locks and ShedLock bridge apply
            assertThatThrownBy(() -> RedisFence.create(factory, "tenant {a}"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyPrefix");
            assertThatThrownBy(() -> RedisFence.create(factory, "job guard"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyPrefix 'job guard'");
            assertThatThrownBy(() -> RedisFence.create(factory, " "))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("keyPrefix must not be blank");
            assertThat(RedisFence.create(factory, "tenant-a").fenceKey("report")).isEqualTo("tenant-a:fence:{report}");
        } finally {
            factory.destroy();
        }
    }

    /** Waits until PostgreSQL shows a session blocked on a lock: the other writer has reached the row. */
    private static void awaitALockWaiter() {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            try (Connection c = postgres.connect(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) {
                r.next();
                return r.getLong(1) > 0;
            }
        });
    }

    static String ddl(String dialect) {
        try (InputStream in = JdbcFence.class.getResourceAsStream("/io/jobguard/fencing/fence-" + dialect + ".sql")) {
            assertThat(in).as("DDL for " + dialect).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean writeInTransaction(String resource, long token, String entry) throws SQLException {
        try (Connection c = transaction()) {
            insertLedger(c, entry, token);
            try {
                fence.advance(c, resource, token);
            } catch (StaleFencingTokenException e) {
                c.rollback();
                throw e;
            }
            c.commit();
            return true;
        }
    }

    private static Connection transaction() throws SQLException {
        Connection c = postgres.connect();
        c.setAutoCommit(false);
        return c;
    }

    private static void insertLedger(Connection c, String entry, long token) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO ledger (entry, token) VALUES (?, ?)")) {
            s.setString(1, entry);
            s.setLong(2, token);
            s.executeUpdate();
        }
    }

    private static long fenceToken(String resource) throws SQLException {
        try (Connection c = postgres.connect();
             PreparedStatement s = c.prepareStatement("SELECT token FROM jobguard_fence WHERE resource = ?")) {
            s.setString(1, resource);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).isTrue();
                return r.getLong(1);
            }
        }
    }

    private static long ledger() throws SQLException {
        try (Connection c = postgres.connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM ledger")) {
            r.next();
            return r.getLong(1);
        }
    }
}
