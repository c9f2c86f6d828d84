package io.jobguard.spring.tx;

import io.jobguard.ClusterSingleton;
import io.jobguard.LeaseLostException;
import io.jobguard.RunContext;
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
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code @ClusterSingleton} and {@code @Transactional} on one method: the guard's advice is the outer one, so the
 * transaction begins inside the run, and its commit is checked against the lease (an outer transaction would
 * commit after the run ended, unchecked, and this test would see no LeaseLostException).
 */
class TransactionalJobTest {

    @Test
    void aTransactionalGuardedMethodWhoseLeaseRunsOutRollsBackWithLeaseLostException() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class,
                        JobGuardTransactionAutoConfiguration.class))
                .withUserConfiguration(App.class)
                .withPropertyValues("jobguard.store=in-memory", "jobguard.node-id=tx")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Settlement job = context.getBean(Settlement.class);
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    assertThatThrownBy(job::settle).isInstanceOf(LeaseLostException.class)
                            .hasMessageContaining("settle");
                    assertThat(job.sawTransactionInsideTheRun()).isTrue();
                    assertThat(jdbc.queryForObject("SELECT count(*) FROM t", Long.class)).isZero();
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class App {

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

        @Bean
        Settlement settlement(JdbcTemplate jdbc) {
            return new Settlement(jdbc);
        }
    }

    static class Settlement {
        private final JdbcTemplate jdbc;
        private final AtomicBoolean sawTransactionInsideTheRun = new AtomicBoolean();

        Settlement(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        public boolean sawTransactionInsideTheRun() {
            return sawTransactionInsideTheRun.get();
        }

        @ClusterSingleton(name = "settle", lease = "1s", keepAlive = false)
        @Scheduled(cron = "0 0 2 * * *")
        @Transactional
        public void settle() {
            sawTransactionInsideTheRun.set(TransactionSynchronizationManager.isActualTransactionActive()
                    && RunContext.current().isPresent());
            jdbc.update("INSERT INTO t VALUES ('settled')");
            RunContext run = RunContext.current().orElseThrow();
            await().atMost(Duration.ofSeconds(20)).until(run::isLeaseLost);
        }
    }
}
