package io.jobguard.spring.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.ClusterSingleton;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * At Boot's default log level a guarded application says, in one INFO line, that job-guard is on,
 * which Redis it uses, its namespace and node id and every guarded job with its schedule; without
 * {@code @EnableScheduling} it warns that the guarded methods never fire.
 */
@WithRedis
class StartupReportIT {

    @Test
    void oneInfoLineNamesStoreNamespaceNodeAndTheGuardedJobsWithTheirSchedules(RedisServerProcess redis) {
        List<ILoggingEvent> lines = start(redis, ScheduledApp.class);
        List<String> info = messages(lines, Level.INFO);
        assertThat(info).filteredOn(m -> m.startsWith("job-guard on:")).singleElement().asString()
                .contains("Redis " + redis.host() + ":" + redis.port(), "namespace 'billing'", "node 'node-1'",
                        "1 guarded job(s)", "invoices (cron \"0 0 3 * * *\"");
        assertThat(messages(lines, Level.WARN)).noneMatch(m -> m.contains("@EnableScheduling"));
    }

    @Test
    void guardedMethodsWithoutEnableSchedulingAreAWarningNamingTheMethodAndTheFix(RedisServerProcess redis) {
        List<ILoggingEvent> lines = start(redis, UnscheduledApp.class);
        assertThat(messages(lines, Level.WARN)).filteredOn(m -> m.contains("scheduling is not enabled"))
                .singleElement().asString().contains("Invoices.send()", "add @EnableScheduling");
    }

    private static List<ILoggingEvent> start(RedisServerProcess redis, Class<?> app) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        // Boot re-initializes Logback while it prepares the environment: attach once that is done.
        SpringApplicationBuilder builder = new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
                .listeners(event -> {
                    if (event instanceof ApplicationPreparedEvent) {
                        appender.start();
                        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(appender);
                    }
                })
                .properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                        "spring.main.banner-mode=off", "jobguard.namespace=billing", "jobguard.node-id=node-1");
        try (ConfigurableApplicationContext context = builder.run()) {
            assertThat(context.isActive()).isTrue();
        } finally {
            ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(appender);
        }
        return List.copyOf(appender.list);
    }

    private static List<String> messages(List<ILoggingEvent> lines, Level level) {
        return lines.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** Guarded and scheduled. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class ScheduledApp {
        @Bean
        Invoices invoices() {
            return new Invoices();
        }
    }

    /** Guarded, but nothing schedules the method. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class UnscheduledApp {
        @Bean
        Invoices invoices() {
            return new Invoices();
        }
    }

    static class Invoices {
        @Scheduled(cron = "0 0 3 * * *")
        @ClusterSingleton(name = "invoices", lease = "1m")
        public void send() {
            // fires at 03:00 only: never during the test
        }
    }
}
