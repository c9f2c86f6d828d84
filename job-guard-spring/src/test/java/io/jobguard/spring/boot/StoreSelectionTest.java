package io.jobguard.spring.boot;

import io.jobguard.BatchLocked;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.batch.BatchLocks;
import io.jobguard.memory.InMemoryLeaseStore;
import io.jobguard.shedlock.ShedLockLeaseStore;
import io.jobguard.store.LeaseStore;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code jobguard.store} selects the lease store; stores without fencing refuse batch locks at startup. */
@ExtendWith(OutputCaptureExtension.class)
class StoreSelectionTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class,
                    JobGuardBatchAutoConfiguration.class))
            .withPropertyValues("jobguard.namespace=stores", "jobguard.node-id=store-node");

    @Test
    void inMemoryStoreIsUsedOnlyWhenAskedForAndWarnsThatItIsSingleJvm(CapturedOutput output) {
        runner.withPropertyValues("jobguard.store=in-memory").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(LeaseStore.class)).isInstanceOf(InMemoryLeaseStore.class);
            AtomicInteger runs = new AtomicInteger();
            JobGuard guard = context.getBean(JobGuard.class);
            assertThat(guard.run(JobOptions.builder("mem", Duration.ofSeconds(5)).build(), Instant.now(),
                    runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
            assertThat(runs).hasValue(1);
        });
        assertThat(output).contains("jobguard.store=in-memory: leases live in this JVM only");
    }

    @Test
    void redisStoreWithoutConnectionFactoryFailsNamingTheFix() {
        runner.run(context -> assertThat(context).getFailure().rootCause()
                .hasMessageContaining("has no RedisConnectionFactory bean"));
    }

    @Test
    void shedLockStoreWithoutLockProviderFailsAtStartup() {
        runner.withPropertyValues("jobguard.store=shedlock").run(context -> assertThat(context).getFailure()
                .rootCause().hasMessage("jobguard.store=shedlock but the application has no "
                        + "net.javacrumbs.shedlock.core.LockProvider bean: define one (for example a "
                        + "JdbcTemplateLockProvider) or choose jobguard.store=redis"));
    }

    @Test
    void shedLockStoreRunsJobsOverTheApplicationsLockProvider() {
        runner.withPropertyValues("jobguard.store=shedlock").withUserConfiguration(JdbcLocks.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(LeaseStore.class)).isInstanceOf(ShedLockLeaseStore.class);
            // no RedisConnectionFactory here: the batch auto-configuration backs off, the job store still works
            assertThat(context).doesNotHaveBean(BatchLocks.class);
            AtomicInteger runs = new AtomicInteger();
            JobGuard guard = context.getBean(JobGuard.class);
            Instant fire = Instant.parse("2026-01-01T00:00:00Z");
            JobOptions job = JobOptions.builder("shed-" + UUID.randomUUID(), Duration.ofSeconds(30)).build();
            assertThat(guard.run(job, fire, runs::incrementAndGet)).isEqualTo(RunOutcome.RAN);
            assertThat(guard.run(job, fire, runs::incrementAndGet)).isEqualTo(RunOutcome.ALREADY_RAN);
            assertThat(runs).hasValue(1);
        });
    }

    @Test
    void batchLockedMethodOnAStoreWithoutFencingFailsNamingTheMethodAndTheStore() {
        runner.withPropertyValues("jobguard.store=shedlock").withUserConfiguration(JdbcLocks.class, UnusedRedis.class, Inventory.class)
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("@BatchLocked method " + Inventory.class.getName() + ".reserve()")
                        .hasMessageContaining("need a lease store with fencing tokens")
                        .hasMessageContaining("ShedLockLeaseStore")
                        .hasMessageContaining("jobguard.store=shedlock"));
    }

    @Test
    void batchLocksInjectionOnAStoreWithoutFencingFailsNamingTheBeanAndTheStore() {
        runner.withPropertyValues("jobguard.store=shedlock").withUserConfiguration(JdbcLocks.class, UnusedRedis.class, NeedsLocks.class)
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("bean 'jobGuardBatchLocks'")
                        .hasMessageContaining("ShedLockLeaseStore")
                        .hasMessageContaining("jobguard.store=shedlock"));
    }

    @Test
    void storeWithoutFencingStartsWhenNothingAsksForBatchLocks() {
        runner.withPropertyValues("jobguard.store=shedlock").withUserConfiguration(JdbcLocks.class, UnusedRedis.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeanFactory().getBeanDefinition("jobGuardBatchLocks").isLazyInit()).isTrue();
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class JdbcLocks {
        @Bean
        LockProvider lockProvider() {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            JdbcTemplate jdbc = new JdbcTemplate(h2);
            jdbc.execute("CREATE TABLE shedlock (name VARCHAR(255) NOT NULL, lock_until TIMESTAMP NOT NULL, "
                    + "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
            return new JdbcTemplateLockProvider(jdbc);
        }
    }

    /**
     * A Redis connection factory that is never connected (nothing listens on its port): it only
     * makes the batch auto-configuration apply, whose fencing check must fail before any Redis use.
     */
    @Configuration(proxyBeanMethods = false)
    static class UnusedRedis {
        @Bean
        LettuceConnectionFactory redisConnectionFactory() throws IOException {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        }
    }

    /** A bean with a batch-locked method. */
    public static class Inventory {
        @BatchLocked(namespace = "sku", keys = "#skus")
        public void reserve(List<String> skus) {
            // never called: the context must fail at startup
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NeedsLocks {
        @Bean
        String usesLocks(BatchLocks locks) {
            return locks.toString();
        }
    }
}
