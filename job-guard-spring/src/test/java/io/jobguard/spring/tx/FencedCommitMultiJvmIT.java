package io.jobguard.spring.tx;

import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.PostgresProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fencing end-to-end case, with two JVM processes sharing one redis-server and one PostgreSQL from the
 * harness: node A's run is frozen (SIGSTOP) inside its transaction past its lease; node B runs the next fire time
 * and commits through the fence; A, continued, cannot commit (LeaseLostException, rolled back) and its fenced write
 * with the lower token is refused; the fence table holds B's token.
 */
@WithRedis
class FencedCommitMultiJvmIT {

    private static final Duration STEP = Duration.ofSeconds(60);
    private static final long LEASE_MILLIS = 3_000;
    private static PostgresProcess postgres;

    @BeforeAll
    static void startPostgres() throws IOException {
        postgres = PostgresProcess.start();
        try (InputStream ddl = FencedCommitMultiJvmIT.class.getResourceAsStream("/io/jobguard/fencing/fence-postgresql.sql")) {
            postgres.execute(new String(ddl.readAllBytes(), StandardCharsets.UTF_8),
                    "CREATE TABLE ledger (entry VARCHAR(100), token BIGINT)");
        }
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void aFrozenRunCannotCommitAfterTheNextRunHasAndItsFencedWriteIsRefused(RedisServerProcess redis) throws Exception {
        Instant t1 = Instant.parse("2026-11-23T12:00:00Z");
        Instant t2 = t1.plusSeconds(60);
        String port = Integer.toString(redis.port());
        try (ChildJvm a = ChildJvm.start("node-a", ChildJvm.QUICK_START, FencedNode.class, List.of(port,
                postgres.jdbcUrl(), "node-a", "settle", Long.toString(t1.toEpochMilli()), Long.toString(LEASE_MILLIS),
                "stale"))) {
            long tokenA = token(a.await("ACQUIRED", STEP));
            a.await("IN_TX", STEP);
            a.signal("STOP");
            try (ChildJvm b = ChildJvm.start("node-b", ChildJvm.QUICK_START, FencedNode.class, List.of(port,
                    postgres.jdbcUrl(), "node-b", "settle", Long.toString(t2.toEpochMilli()), Long.toString(LEASE_MILLIS),
                    "next"))) {
                long tokenB = token(b.await("ACQUIRED", STEP));
                assertThat(tokenB).isGreaterThan(tokenA);
                assertThat(b.await("COMMITTED", STEP)).isEqualTo("COMMITTED " + tokenB);
                assertThat(b.waitForExit(STEP)).isTrue();

                a.signal("CONT");
                a.send("CONTINUE");
                assertThat(a.await("LEASE_LOST", STEP)).isEqualTo("LEASE_LOST true");
                assertThat(a.await("ROLLED_BACK", STEP)).as(a.output()).isEqualTo("ROLLED_BACK LeaseLostException");
                assertThat(a.await("FENCED_", STEP)).as(a.output())
                        .isEqualTo("FENCED_WRITE_REFUSED " + tokenA + " " + tokenB);
                a.await("DONE", STEP);

                assertThat(query("SELECT token FROM jobguard_fence WHERE resource = 'settlement'"))
                        .containsExactly(Long.toString(tokenB));
                assertThat(query("SELECT entry FROM ledger ORDER BY entry")).containsExactly("node-b next");
            }
        }
    }

    private static long token(String acquiredLine) {
        return Long.parseLong(acquiredLine.substring("ACQUIRED ".length()).trim());
    }

    private static List<String> query(String sql) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = postgres.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                values.add(r.getString(1));
            }
        }
        return values;
    }
}
