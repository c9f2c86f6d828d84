package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.shedlock.JdbcMarkerReaper;
import io.jobguard.shedlock.MarkerReaper;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** With {@code jobguard.store=shedlock}, a {@link MarkerReaper} bean is used to delete expired fire-time markers. */
class ShedLockMarkerReaperWiringTest {

    @Test
    void aMarkerReaperBeanIsCalledWithTheJobsMarkerPrefix() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class))
                .withUserConfiguration(Locks.class)
                .withPropertyValues("jobguard.store=shedlock", "jobguard.namespace=reap", "jobguard.node-id=n")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    JobGuard guard = context.getBean(JobGuard.class);
                    JobOptions job = JobOptions.builder("reaped", Duration.ofSeconds(5)).build();
                    Instant t = Instant.parse("2026-11-23T00:00:00Z");
                    for (int i = 0; i < 100; i++) {
                        assertThat(guard.run(job, t.plusSeconds(i), () -> { })).isEqualTo(RunOutcome.RAN);
                    }
                    assertThat(context.getBean(Locks.class).prefixes).containsExactly("reap:reaped:fired:");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Locks {
        final List<String> prefixes = new CopyOnWriteArrayList<>();
        private final JdbcDataSource h2 = new JdbcDataSource();

        Locks() {
            h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            new JdbcTemplate(h2).execute("CREATE TABLE shedlock (name VARCHAR(255) NOT NULL, lock_until TIMESTAMP NOT NULL, "
                    + "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
        }

        @Bean
        LockProvider lockProvider() {
            return new JdbcTemplateLockProvider(new JdbcTemplate(h2));
        }

        @Bean
        MarkerReaper markerReaper() {
            MarkerReaper jdbc = JdbcMarkerReaper.create(h2, "shedlock");
            return (prefix, before) -> {
                prefixes.add(prefix);
                return jdbc.deleteExpired(prefix, before);
            };
        }
    }
}
