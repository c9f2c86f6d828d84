package io.jobguard.spring.tx;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.LeaseLostException;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import io.jobguard.spring.boot.JobGuardTransactionAutoConfiguration;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The Boot wiring of the lease check: every transaction manager bean gets it unless
 * {@code jobguard.transactions.check-lease=false}; a transaction begun in a run whose lease is gone rolls back.
 */
class LeaseCheckingTransactionTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class,
                    JobGuardTransactionAutoConfiguration.class))
            .withUserConfiguration(Database.class)
            .withPropertyValues("jobguard.store=in-memory", "jobguard.node-id=tx-node");

    @Test
    void aCommitAfterTheLeaseDeadlineRollsBackWithLeaseLostExceptionAndOthersCommit() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            DataSourceTransactionManager manager = context.getBean(DataSourceTransactionManager.class);
            assertThat(manager.getTransactionExecutionListeners())
                    .hasAtLeastOneElementOfType(LeaseCheckingTransactionListener.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            TransactionTemplate tx = new TransactionTemplate(manager);
            JobGuard guard = context.getBean(JobGuard.class);
            // No keep-alive: the lease runs out by itself after one second.
            JobOptions job = JobOptions.builder("tx-job", Duration.ofSeconds(1)).keepAlive(false).build();

            FiringPermit live = guard.admit(job, Instant.parse("2026-11-23T12:00:00Z")).permit();
            tx.executeWithoutResult(s -> jdbc.update("INSERT INTO t VALUES ('under a live lease')"));
            live.finish(null);

            FiringPermit expiring = guard.admit(job, Instant.parse("2026-11-23T12:01:00Z")).permit();
            assertThatThrownBy(() -> tx.executeWithoutResult(s -> {
                jdbc.update("INSERT INTO t VALUES ('after the deadline')");
                await().atMost(Duration.ofSeconds(20)).until(() -> expiring.context().isLeaseLost());
            })).isInstanceOf(LeaseLostException.class).hasMessageContaining("tx-job").hasMessageContaining("commit");
            expiring.finish(null);

            tx.executeWithoutResult(s -> jdbc.update("INSERT INTO t VALUES ('outside any run')"));
            assertThat(jdbc.queryForList("SELECT v FROM t ORDER BY v", String.class))
                    .containsExactly("outside any run", "under a live lease");
        });
    }

    @Test
    void thePropertyTurnsTheCheckOff() {
        runner.withPropertyValues("jobguard.transactions.check-lease=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(DataSourceTransactionManager.class).getTransactionExecutionListeners())
                    .noneMatch(l -> l instanceof LeaseCheckingTransactionListener);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Database {

        @Bean
        JdbcDataSource dataSource() {
            JdbcDataSource dataSource = new JdbcDataSource();
            dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            new JdbcTemplate(dataSource).execute("CREATE TABLE t (v VARCHAR(100))");
            return dataSource;
        }

        @Bean
        DataSourceTransactionManager transactionManager(JdbcDataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        JdbcTemplate jdbcTemplate(JdbcDataSource dataSource) {
            return new JdbcTemplate(dataSource);
        }
    }
}
