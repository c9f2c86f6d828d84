package io.jobguard.spring.tx;

import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.LeaseLostException;
import io.jobguard.NodeConfig;
import io.jobguard.fencing.StaleFencingTokenException;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.spring.fencing.JdbcTemplateFence;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * One node of {@link FencedCommitMultiJvmIT}, in a JVM of its own: a guarded run that writes to PostgreSQL in a
 * Spring transaction (with the lease check) and through the fence. Prints "NODE ..." lines the test waits for.
 *
 * <p>Arguments: redis port, JDBC URL, node id, job, fire time (epoch ms), lease (ms), role ({@code stale}: writes,
 * then waits for a "CONTINUE" line on stdin before committing; {@code next}: waits for the lease, writes through
 * the fence and commits).
 */
public final class FencedNode {

    static final String RESOURCE = "settlement";

    private FencedNode() {
    }

    public static void main(String[] args) throws Exception {
        int redisPort = Integer.parseInt(args[0]);
        String jdbcUrl = args[1];
        String nodeId = args[2];
        String jobName = args[3];
        Instant fireTime = Instant.ofEpochMilli(Long.parseLong(args[4]));
        Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
        boolean stale = "stale".equals(args[6]);

        LettuceConnectionFactory redis = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", redisPort),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
        redis.afterPropertiesSet();
        redis.start();
        RedisLeaseStore store = RedisLeaseStore.create(redis);
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(nodeId)
                .build())
                .skewTolerance(Duration.ofSeconds(30)).build());
        DriverManagerDataSource dataSource = new DriverManagerDataSource(jdbcUrl, "postgres", "");
        DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
        new LeaseCheckingTransactionListener().addTo(transactions);
        TransactionTemplate tx = new TransactionTemplate(transactions);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        JdbcTemplateFence fence = new JdbcTemplateFence(jdbc);
        // Warm up both clients first: a lease's deadline counts from when its acquire was sent.
        store.serverTime();
        jdbc.queryForObject("SELECT 1", Integer.class);

        JobOptions job = JobOptions.builder(jobName, lease).type(GuardType.WAIT).waitFor(Duration.ofSeconds(60))
                .build();
        FiringPermit permit = guard.admit(job, fireTime).permit();
        long token = permit.context().fencingToken();
        say("ACQUIRED " + token);
        if (stale) {
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            try {
                tx.executeWithoutResult(status -> {
                    jdbc.update("INSERT INTO ledger (entry, token) VALUES (?, ?)", nodeId + " first", token);
                    say("IN_TX");
                    awaitLine(stdin, "CONTINUE");
                    say("LEASE_LOST " + permit.context().isLeaseLost());
                });
                say("COMMITTED " + token);
            } catch (LeaseLostException e) {
                say("ROLLED_BACK " + e.getClass().getSimpleName());
            }
            // As if a lease check had passed just before a pause: only the fence stands in the way now.
            try {
                tx.executeWithoutResult(status -> {
                    fence.advance(RESOURCE, token);
                    jdbc.update("INSERT INTO ledger (entry, token) VALUES (?, ?)", nodeId + " fenced", token);
                });
                say("FENCED_WRITE_COMMITTED " + token);
            } catch (StaleFencingTokenException e) {
                say("FENCED_WRITE_REFUSED " + e.presentedToken() + " " + e.currentToken());
            } catch (LeaseLostException e) {
                say("FENCED_TX_ROLLED_BACK " + e.getMessage());
            }
        } else {
            tx.executeWithoutResult(status -> {
                fence.advance(RESOURCE);
                jdbc.update("INSERT INTO ledger (entry, token) VALUES (?, ?)", nodeId + " next", token);
            });
            say("COMMITTED " + token);
        }
        permit.finish(null);
        guard.close();
        store.close();
        redis.destroy();
        say("DONE");
        System.exit(0);
    }

    private static void awaitLine(BufferedReader in, String expected) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.trim().equals(expected)) {
                    return;
                }
            }
            throw new IllegalStateException("stdin closed before " + expected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void say(String line) {
        System.out.println("NODE " + line);
        System.out.flush();
    }
}
