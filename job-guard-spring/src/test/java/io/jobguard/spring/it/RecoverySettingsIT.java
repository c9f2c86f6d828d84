package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.Delivery;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.spring.JobOptionsCustomizer;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The recovery settings through Boot: where a job's misfire policy, delivery, catch-up window and
 * maximum come from, what a {@code JobOptionsCustomizer} sees of them and may change, and bad values (or a
 * customizer that drops the recovery) failing startup with the job and the setting named.
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

        /** Records the recovery each job's customizer saw, and moves {@code nightly} to RUN_ALL with a maximum of 7. */
        @Bean
        @ConditionalOnProperty(name = "test.case", havingValue = "customizer")
        JobOptionsCustomizer runAllNightly() {
            return (options, method) -> {
                SEEN.put(options.name(), Optional.ofNullable(options.recovery()));
                if (!options.name().equals("nightly") || options.recovery() == null) {
                    return options;
                }
                return options.toBuilder().recovery(options.recovery().toBuilder().misfirePolicy(MisfirePolicy.RUN_ALL)
                        .catchUpMax(7).build()).build();
            };
        }

        /** Rebuilds {@code nightly}'s options from scratch, which drops its recovery. */
        @Bean
        @ConditionalOnProperty(name = "test.case", havingValue = "drop-recovery")
        JobOptionsCustomizer rebuildNightly() {
            return (options, method) -> !options.name().equals("nightly") ? options
                    : JobOptions.builder(options.name(), options.lease()).build();
        }

        /** Gives {@code nightly} a recovery without the method's grid. */
        @Bean
        @ConditionalOnProperty(name = "test.case", havingValue = "other-grid")
        JobOptionsCustomizer gridlessNightly() {
            return (options, method) -> !options.name().equals("nightly") ? options
                    : options.toBuilder().recovery(RecoveryOptions.builder().misfirePolicy(MisfirePolicy.RUN_ALL).build())
                    .build();
        }
    }

    /** The recovery each job's customizer was given, by job name. */
    static final Map<String, Optional<RecoveryOptions>> SEEN = new ConcurrentHashMap<>();

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
            RecoveryOptions nightly = registry.forName("nightly").orElseThrow().options().recovery();
            assertThat(nightly.misfirePolicy()).isEqualTo(MisfirePolicy.RUN_LATEST);
            assertThat(nightly.delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
            assertThat(nightly.catchUpWindow()).isEqualTo(Duration.ofHours(5));
            assertThat(nightly.catchUpMax()).isEqualTo(4);
            assertThat(nightly.schedule()).isNotNull();
            RecoveryOptions delayed = registry.forName("delayed").orElseThrow().options().recovery();
            assertThat(delayed.delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
            assertThat(delayed.schedule()).as("fixed delay: no grid, no missed fire times").isNull();
        }
    }

    @Test
    void withNoPolicyAndNoDeliveryAJobHasNoRecovery(RedisServerProcess redis) {
        try (ConfigurableApplicationContext ok = start(redis)) {
            assertThat(ok.getBean(GuardedJobRegistry.class).forName("delayed").orElseThrow().options().recovery()).isNull();
        }
    }

    @Test
    void badValuesFailStartupNamingTheJobAndTheSetting(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton(misfirePolicy) of job 'bad'", "test.case=bad-annotation");
        assertStartupFails(redis, "job 'nightly'", "jobguard.jobs.nightly.catch-up-max=0");
        assertStartupFails(redis, "jobguard.catch-up-window must be at most 30 days", "jobguard.catch-up-window=40d");
        assertStartupFails(redis, "jobguard.jobs.nightly.misfire-policy", "jobguard.jobs.nightly.misfire-policy=LATER");
    }

    @Test
    void aCustomizerSeesTheResolvedRecoveryAndWhatItReturnsIsTheJobsOnlyOptions(RedisServerProcess redis) {
        SEEN.clear();
        try (ConfigurableApplicationContext ok = start(redis, "test.case=customizer", "jobguard.delivery=AT_LEAST_ONCE")) {
            // given to the customizer: the annotation's policy and window, the global delivery, the method's grid
            RecoveryOptions seen = SEEN.get("nightly").orElseThrow();
            assertThat(seen.misfirePolicy()).isEqualTo(MisfirePolicy.RUN_LATEST);
            assertThat(seen.delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
            assertThat(seen.catchUpWindow()).isEqualTo(Duration.ofHours(3));
            assertThat(seen.schedule()).isNotNull();
            assertThat(SEEN.get("delayed").orElseThrow().delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
            // kept: the job's one options carry the customized recovery, on the same grid
            JobOptions nightly = ok.getBean(GuardedJobRegistry.class).forName("nightly").orElseThrow().options();
            assertThat(nightly.recovery()).isEqualTo(seen.toBuilder().misfirePolicy(MisfirePolicy.RUN_ALL).catchUpMax(7)
                    .build());
            assertThat(nightly.recovery().schedule()).isSameAs(seen.schedule());
        }
    }

    @Test
    void aCustomizerThatRemovesTheRecoveryOrMovesItOffTheMethodsGridFailsStartupNamingTheJob(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton on " + Nightly.class.getName() + ".run(): a JobOptionsCustomizer "
                + "removed the recovery of lost fire times of job 'nightly' (misfirePolicy RUN_LATEST, delivery "
                + "AT_MOST_ONCE)", "test.case=drop-recovery");
        assertStartupFails(redis, "a JobOptionsCustomizer changed the recovery's schedule of job 'nightly'",
                "test.case=other-grid");
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
