package io.jobguard.options;

import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.GuardType;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.internal.options.JobAttribute;
import io.jobguard.internal.options.JobOptionsResolver;
import io.jobguard.internal.options.OptionSource;
import io.jobguard.internal.options.OptionSources;
import io.jobguard.testing.AnnotationAttributes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one resolution of a job's options: own settings, then the annotation, then the defaults; every element mapped. */
class JobOptionsResolverTest {

    private static final OptionSource LEASE_DEFAULT = map(Map.of(JobAttribute.LEASE, Duration.ofMinutes(1)), "default");

    private static OptionSource map(Map<JobAttribute, Object> values, String label) {
        return new OptionSource() {
            @Override
            public Object value(JobAttribute attribute, String job) {
                return values.get(attribute);
            }

            @Override
            public String label(JobAttribute attribute, String job) {
                return label + "." + attribute.kebab();
            }
        };
    }

    private static JobOptions resolve(OptionSource own, io.jobguard.ClusterSingleton annotation, OptionSource defaults) {
        return JobOptionsResolver.resolve(new JobOptionsResolver.Sources("Jobs.run", own, annotation, null, defaults,
                null, null));
    }

    @Test
    void everyElementOfTheAnnotationIsMappedAndHonoured() {
        AnnotationAttributes.assertCoversTheAnnotation();
        assertThat(Arrays.stream(JobAttribute.values()).map(JobAttribute::element).sorted().toList())
                .isEqualTo(AnnotationAttributes.rows().stream().map(AnnotationAttributes.Row::element).sorted().toList());
        for (AnnotationAttributes.Row row : AnnotationAttributes.rows()) {
            assertThat(row.resolved().apply(resolve(null, row.annotation(), LEASE_DEFAULT))).as("%s", row)
                    .isEqualTo(row.expected());
        }
    }

    @Test
    void ownSettingsBeatTheAnnotationWhichBeatsTheDefaults() {
        io.jobguard.ClusterSingleton lease = AnnotationAttributes.rows().get(2).annotation();
        assertThat(resolve(null, lease, LEASE_DEFAULT).lease()).isEqualTo(Duration.ofSeconds(7));
        assertThat(resolve(map(Map.of(JobAttribute.LEASE, "9s"), "own"), lease, LEASE_DEFAULT).lease())
                .isEqualTo(Duration.ofSeconds(9));
        assertThat(resolve(null, null, LEASE_DEFAULT).lease()).isEqualTo(Duration.ofMinutes(1));
        // the annotation's type beats a default type; keepAlive = false anywhere but the own settings turns it off
        OptionSource defaults = map(Map.of(JobAttribute.LEASE, Duration.ofMinutes(1), JobAttribute.TYPE, GuardType.WAIT,
                JobAttribute.KEEP_ALIVE, false), "default");
        assertThat(resolve(null, lease, defaults).type()).isEqualTo(GuardType.RETURN);
        assertThat(resolve(null, lease, defaults).keepAlive()).isFalse();
        assertThat(resolve(map(Map.of(JobAttribute.KEEP_ALIVE, "true"), "own"), lease, defaults).keepAlive()).isTrue();
        // no policy and no delivery: no recovery; a default policy turns it on
        assertThat(resolve(null, lease, LEASE_DEFAULT).recovery()).isNull();
        assertThat(resolve(null, lease, map(Map.of(JobAttribute.LEASE, "1m", JobAttribute.MISFIRE_POLICY, "run-latest"),
                "default")).recovery().misfirePolicy()).isEqualTo(MisfirePolicy.RUN_LATEST);
    }

    @Test
    void invalidValuesAreRefusedNamingTheSourceAndTheJob() {
        assertThatThrownBy(() -> resolve(null, AnnotationAttributes.of(AnnotationAttributes.BadPolicy.class),
                LEASE_DEFAULT)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(AnnotationAttributes.BAD_POLICY_MESSAGE);
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.CATCH_UP_MAX, "many"), "own"), null, LEASE_DEFAULT))
                .hasMessage("own.catch-up-max of job 'Jobs.run' is \"many\", not a number");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.CATCH_UP_WINDOW, "40d"), "own"), null, LEASE_DEFAULT))
                .hasMessageStartingWith("own.catch-up-window of job 'Jobs.run' must be at most 30 days");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.WAIT_FOR, "soon"), "own"), null, LEASE_DEFAULT))
                .hasMessageStartingWith("own.wait-for of job 'Jobs.run': cannot parse duration 'soon'");
    }

    @Test
    void historySettingsAreTheJobsOwnOrNullForTheEnginesDefaultsAndRefusedNamingTheAttribute() {
        JobOptions none = resolve(null, null, LEASE_DEFAULT);
        assertThat(none.historySize()).as("the engine's default").isNull();
        assertThat(none.historyRetention()).isNull();
        JobOptions own = resolve(map(Map.of(JobAttribute.HISTORY_SIZE, "20160", JobAttribute.HISTORY_RETENTION, "30d"),
                "own"), null, LEASE_DEFAULT);
        assertThat(own.historySize()).isEqualTo(20_160);
        assertThat(own.historyRetention()).isEqualTo(Duration.ofDays(30));
        assertThat(resolve(map(Map.of(JobAttribute.HISTORY_SIZE, "0", JobAttribute.HISTORY_RETENTION, "0s"), "own"),
                null, LEASE_DEFAULT)).satisfies(o -> {
                    assertThat(o.historySize()).as("keeps none").isZero();
                    assertThat(o.historyRetention()).as("by count only").isZero();
                });
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.HISTORY_SIZE, "-1"), "own"), null, LEASE_DEFAULT))
                .hasMessage("own.history-size of job 'Jobs.run' is -1, not within 0 to 10000000");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.HISTORY_RETENTION, "-1d"), "own"), null,
                LEASE_DEFAULT)).hasMessageStartingWith("own.history-retention of job 'Jobs.run'");
    }

    @Test
    void retrySettingsAreResolvedFromEverySourceAndRefusedNamingTheAttribute() {
        JobOptions none = resolve(null, null, LEASE_DEFAULT);
        assertThat(none.retry()).isEqualTo(io.jobguard.RetryPolicy.NONE);
        JobOptions own = resolve(map(Map.of(JobAttribute.ATTEMPTS, "5", JobAttribute.RETRY_BACKOFF, "2s",
                JobAttribute.RETRY_MULTIPLIER, "1.5", JobAttribute.RETRY_MAX_BACKOFF, "1m", JobAttribute.RETRY_JITTER,
                "0", JobAttribute.RETRY_ON, "java.io.IOException, java.sql.SQLTransientException",
                JobAttribute.NO_RETRY_ON, List.of("java.io.FileNotFoundException")), "own"), null, LEASE_DEFAULT);
        assertThat(own.retry().attempts()).isEqualTo(5);
        assertThat(own.retry().backoff()).isEqualTo(Duration.ofSeconds(2));
        assertThat(own.retry().multiplier()).isEqualTo(1.5);
        assertThat(own.retry().maxBackoff()).isEqualTo(Duration.ofMinutes(1));
        assertThat(own.retry().jitter()).isZero();
        assertThat(own.retry().retryOn()).containsExactly(java.io.IOException.class,
                java.sql.SQLTransientException.class);
        assertThat(own.retry().noRetryOn()).containsExactly(java.io.FileNotFoundException.class);
        assertThat(own.retry().backoffAfter(1, () -> 0.5)).isEqualTo(Duration.ofSeconds(2));
        assertThat(own.retry().backoffAfter(3, () -> 0.5)).isEqualTo(Duration.ofMillis(4_500));
        assertThat(own.retry().backoffAfter(30, () -> 0.5)).isEqualTo(Duration.ofMinutes(1));

        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.ATTEMPTS, "0"), "own"), null, LEASE_DEFAULT))
                .hasMessage("own.attempts of job 'Jobs.run' is 0, not within 1 to 100");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.RETRY_BACKOFF, "10ms"), "own"), null, LEASE_DEFAULT))
                .hasMessage("own.retry-backoff of job 'Jobs.run' is PT0.01S, below the shortest retry delay (100ms)");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.RETRY_MULTIPLIER, "twice"), "own"), null,
                LEASE_DEFAULT)).hasMessage("own.retry-multiplier of job 'Jobs.run' is \"twice\", not a number");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.RETRY_MAX_BACKOFF, "1s"), "own"), null,
                LEASE_DEFAULT)).hasMessage("own.retry-max-backoff of job 'Jobs.run' is PT1S, shorter than the retry"
                + " back-off (PT10S)");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.RETRY_JITTER, "2"), "own"), null, LEASE_DEFAULT))
                .hasMessage("own.retry-jitter of job 'Jobs.run' is 2.0, not within 0 to 1");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.RETRY_ON, "com.example.Nope"), "own"), null,
                LEASE_DEFAULT)).hasMessage("own.retry-on of job 'Jobs.run' names com.example.Nope, a class that cannot"
                + " be loaded");
        assertThatThrownBy(() -> resolve(map(Map.of(JobAttribute.NO_RETRY_ON, "java.lang.String"), "own"), null,
                LEASE_DEFAULT)).hasMessage("own.no-retry-on of job 'Jobs.run' names java.lang.String, which is not a"
                + " Throwable");
    }

    @Test
    void aRetryPolicyRetriesExceptionsButNeverALostLease() {
        io.jobguard.RetryPolicy policy = io.jobguard.RetryPolicy.attempts(3);
        assertThat(policy.retriesOn(new IllegalStateException())).isTrue();
        assertThat(policy.retriesOn(new OutOfMemoryError())).isFalse();
        assertThat(policy.retriesOn(new io.jobguard.LeaseLostException("j", java.time.Instant.EPOCH, 1, "lost"))).isFalse();
        assertThat(io.jobguard.RetryPolicy.NONE.retriesOn(new IllegalStateException())).isFalse();
        io.jobguard.RetryPolicy only = policy.on(List.of(java.io.IOException.class),
                List.of(java.io.FileNotFoundException.class));
        assertThat(only.retriesOn(new java.io.IOException())).isTrue();
        assertThat(only.retriesOn(new java.io.FileNotFoundException())).isFalse();
        assertThat(only.retriesOn(new IllegalStateException())).isFalse();
    }

    private static JobOptions resolveOnGrid(OptionSource own, FireTimeSchedule grid) {
        return JobOptionsResolver.resolve(new JobOptionsResolver.Sources("Jobs.run", own, null, null, LEASE_DEFAULT,
                null, grid));
    }

    private static FireTimeSchedule every(Duration period) {
        return after -> Instant.ofEpochMilli((after.toEpochMilli() / period.toMillis() + 1) * period.toMillis());
    }

    @Test
    void aJobWithAGridAndNoRecoverySettingIsAccountedByDefault() {
        for (Duration period : List.of(Duration.ofSeconds(1), Duration.ofMinutes(10), Duration.ofDays(1))) {
            FireTimeSchedule grid = every(period);
            JobOptions accounted = resolveOnGrid(null, grid);
            assertThat(accounted.recovery()).as("every %s", period).isNotNull();
            assertThat(accounted.recovery().misfirePolicy()).isEqualTo(MisfirePolicy.SKIP);
            assertThat(accounted.recovery().delivery()).isEqualTo(Delivery.AT_MOST_ONCE);
            assertThat(accounted.recovery().catchUpWindow()).isEqualTo(RecoveryOptions.DEFAULT_CATCH_UP_WINDOW);
            assertThat(accounted.recovery().schedule()).isSameAs(grid);
        }
        assertThat(resolveOnGrid(null, null).recovery()).as("no grid (fixed delay)").isNull();
    }

    @Test
    void aSettingOfTheJobBeatsTheAccountingByDefault() {
        JobOptions runAll = resolveOnGrid(map(Map.of(JobAttribute.MISFIRE_POLICY, "RUN_ALL"), "own"),
                every(Duration.ofHours(1)));
        assertThat(runAll.recovery().misfirePolicy()).isEqualTo(MisfirePolicy.RUN_ALL);
        JobOptions leastOnce = resolveOnGrid(map(Map.of(JobAttribute.DELIVERY, "AT_LEAST_ONCE"), "own"),
                every(Duration.ofSeconds(1)));
        assertThat(leastOnce.recovery().delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
    }

    @Test
    void theNodeDefaultsAreTheConfiguredDefaultsThenTheEnginesDefaultLease() {
        JobGuardConfig engine = JobGuardConfig.builder().defaultLease(Duration.ofMinutes(7)).build();
        OptionSource configured = map(Map.of(JobAttribute.WAIT_FOR, "20s", JobAttribute.MISFIRE_POLICY, "RUN_LATEST"),
                "jobguard");
        OptionSource defaults = OptionSources.nodeDefaults(configured, engine);
        JobOptions options = resolve(null, null, defaults);
        assertThat(options.lease()).isEqualTo(Duration.ofMinutes(7));
        assertThat(options.waitFor()).isEqualTo(Duration.ofSeconds(20));
        assertThat(options.recovery().misfirePolicy()).isEqualTo(MisfirePolicy.RUN_LATEST);
        // a configured lease (blank sets nothing) comes before the engine's; messages name the configured source
        assertThat(resolve(null, null, OptionSources.nodeDefaults(map(Map.of(JobAttribute.LEASE, "30s"), "jobguard"),
                engine)).lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(resolve(null, null, OptionSources.nodeDefaults(map(Map.of(JobAttribute.LEASE, " "), "jobguard"),
                engine)).lease()).isEqualTo(Duration.ofMinutes(7));
        assertThat(resolve(null, null, OptionSources.nodeDefaults(OptionSource.NONE, engine)).lease())
                .isEqualTo(Duration.ofMinutes(7));
        assertThat(defaults.label(JobAttribute.LEASE, "Jobs.run")).isEqualTo("jobguard.lease");
        assertThatThrownBy(() -> resolve(null, null, OptionSources.nodeDefaults(
                map(Map.of(JobAttribute.WAIT_FOR, "soon"), "jobguard"), engine)))
                .hasMessageStartingWith("jobguard.wait-for of job 'Jobs.run'");
    }
}
