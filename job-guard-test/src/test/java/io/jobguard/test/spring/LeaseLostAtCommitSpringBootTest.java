package io.jobguard.test.spring;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobEvent;
import io.jobguard.LeaseLostException;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.test.JobGuardTester;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded method whose lease the kit takes away halfway through its transaction: the commit fails with
 * {@link LeaseLostException} (job-guard's lease check on the application's transaction manager), the transaction rolls
 * back, and the firing ends {@code FAILED} with that exception. No Redis: the kit's store, an in-memory H2 database.
 */
@SpringBootTest(classes = LeaseLostAtCommitSpringBootTest.App.class, properties = {"spring.application.name=ledger",
        "jobguard.jobs.postings.lease=300ms"})
@AutoConfigureJobGuardTest
class LeaseLostAtCommitSpringBootTest {

    private static final Instant T = Instant.parse("2030-01-01T03:00:00Z");

    @Autowired
    GuardedJobs jobs;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aLeaseLostBeforeCommitRollsTheTransactionBackWithLeaseLostException() {
        Postings.tester = jobs.tester();
        try {
            assertThat(jobs.fire("postings", T)).isEqualTo(RunOutcome.FAILED);
        } finally {
            Postings.tester = null;
        }
        List<JobEvent> events = jobs.tester().events("postings");
        assertThat(events).last().satisfies(event -> {
            assertThat(event.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(event.failure()).isInstanceOf(LeaseLostException.class);
        });
        assertThat(jdbc.queryForObject("select count(*) from posting where fire_time = ?", Integer.class,
                T.toEpochMilli())).as("rows of the rolled-back transaction").isZero();
    }

    @Test
    void withTheLeaseHeldTheTransactionCommits() {
        Instant t = T.plusSeconds(60);
        assertThat(jobs.fire("postings", t)).isEqualTo(RunOutcome.RAN);
        assertThat(jdbc.queryForObject("select count(*) from posting where fire_time = ?", Integer.class,
                t.toEpochMilli())).isEqualTo(1);
    }

    /** A guarded job that writes in a transaction of its own; the test may take its lease away before the commit. */
    static class Postings {
        static volatile JobGuardTester tester;
        private final TransactionTemplate transactions;
        private final JdbcTemplate jdbc;

        Postings(TransactionTemplate transactions, JdbcTemplate jdbc) {
            this.transactions = transactions;
            this.jdbc = jdbc;
        }

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @ClusterSingleton(name = "postings", lease = "10m")
        public void post() {
            transactions.executeWithoutResult(status -> {
                Instant fireTime = RunContext.current().orElseThrow().nominalFireTime();
                jdbc.update("insert into posting(fire_time) values (?)", fireTime.toEpochMilli());
                JobGuardTester loser = tester;
                if (loser != null) {
                    loser.loseLease("postings");
                }
            });
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class App {
        @Bean
        DataSource dataSource() {
            return new DriverManagerDataSource("jdbc:h2:mem:postings;DB_CLOSE_DELAY=-1", "sa", "");
        }

        @Bean
        JdbcTransactionManager transactionManager(DataSource dataSource) {
            return new JdbcTransactionManager(dataSource);
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("create table if not exists posting(fire_time bigint)");
            return jdbc;
        }

        @Bean
        Postings postings(JdbcTemplate jdbc, JdbcTransactionManager transactionManager) {
            return new Postings(new TransactionTemplate(transactionManager), jdbc);
        }
    }
}
