package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.Delivery;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The recovery settings through Boot: where a job's misfire policy, delivery, catch-up window and
 * maximum come from, and bad values failing startup with the job and the setting named.
 */
@WithRedis
class RecoverySettingsIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class App {
        @Bean
        Nightly nightly() {
            return new Nightly();
        }

        @Bean
        @ConditionalOnProperty(name = "test.case", havingValue = "bad-annotation")
        BadPolicy badPolicy() {
            return new BadPolicy();
        }

        @Bean
        Delayed delayed() {
            return new Delayed();
        }
    }

    static class Nightly {
        @Scheduled(cron = "0 0 2 * * *")
        @ClusterSingleton(name = "nightly", lease = "1m", misfirePolicy = "RUN_LATEST", catchUpWindow = "3h")
        public void run() {
        }
    }

    static class Delayed {
        @Scheduled(fixedDelay = 60_000)
        @ClusterSingleton(name = "delayed", lease = "1m")
        public void run() {
        }
    }

    static class BadPolicy {
        @Scheduled(cron = "0 0 3 * * *")
        @ClusterSingleton(name = "bad", lease = "1m", misfirePolicy = "LATER")
        public void run() {
        }
    }

    @Test
    void annotationThenGlobalThenPerJobSettingsApplyAndFixedDelayJobsHaveNoGrid(RedisServerProcess redis) {
        try (ConfigurableApplicationContext ok = start(redis, "jobguard.delivery=AT_LEAST_ONCE",
                "jobguard.catch-up-max=4", "jobguard.jobs.nightly.catch-up-window=5h")) {
            GuardedJobRegistry registry = ok.getBean(GuardedJobRegistry.class);
            RecoveryOptions nightly = registry.forName("nightly").orElseThrow().recovery();
            assertThat(nightly.misfirePolicy()).isEqualTo(MisfirePolicy.RUN_LATEST);
            assertThat(nightly.delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
            assertThat(nightly.catchUpWindow()).isEqualTo(Duration.ofHours(5));
            assertThat(nightly.catchUpMax()).isEqualTo(4);
            assertThat(nightly.schedule()).isNotNull();
            RecoveryOptions delayed = registry.forName("delayed").orElseThrow().recovery();
            assertThat(delayed.delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
            assertThat(delayed.schedule()).as("fixed delay: no grid, no missed fire times").isNull();
        }
    }

    @Test
    void withNoPolicyAndNoDeliveryAJobHasNoRecovery(RedisServerProcess redis) {
        try (ConfigurableApplicationContext ok = start(redis)) {
            assertThat(ok.getBean(GuardedJobRegistry.class).forName("delayed").orElseThrow().recovery()).isNull();
        }
    }

    @Test
    void badValuesFailStartupNamingTheJobAndTheSetting(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton(misfirePolicy) of job 'bad'", "test.case=bad-annotation");
        assertStartupFails(redis, "job 'nightly'", "jobguard.jobs.nightly.catch-up-max=0");
        assertStartupFails(redis, "jobguard.catch-up-window must be at most 30 days", "jobguard.catch-up-window=40d");
        assertStartupFails(redis, "jobguard.jobs.nightly.misfire-policy", "jobguard.jobs.nightly.misfire-policy=LATER");
    }

    private static void assertStartupFails(RedisServerProcess redis, String message, String... props) {
        assertThatThrownBy(() -> start(redis, props).close())
                .satisfies(e -> assertThat(messages(e)).contains(message));
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        all.append(NestedExceptionUtils.getMostSpecificCause(e).getMessage());
        return all.toString();
    }

    private static ConfigurableApplicationContext start(RedisServerProcess redis, String... props) {
        List<String> all = new ArrayList<>(Arrays.asList(props));
        all.add("jobguard.node-id=settings");
        return Nodes.context(redis, App.class, WebApplicationType.NONE, all);
    }
}
