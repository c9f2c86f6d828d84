package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code jobguard.history.size} and {@code jobguard.history.retention} set the engine's run history defaults (2,000
 * entries, 14 days); {@code jobguard.history-size} is the older name of the size and means the same; both set to
 * different values, or a value out of range, fail the startup with a message naming the property.
 */
class HistoryPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class))
            .withPropertyValues("jobguard.namespace=history", "jobguard.node-id=history-node", "jobguard.store=in-memory");

    @Test
    void theDefaultsAreTenThousandEntriesForFourteenDays() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(JobGuard.class).config().historySize()).isEqualTo(2_000);
            assertThat(context.getBean(JobGuard.class).config().historyRetention()).isEqualTo(Duration.ofDays(14));
        });
    }

    @Test
    void theNewNamesAndTheOlderNameSetTheSame() {
        runner.withPropertyValues("jobguard.history.size=500", "jobguard.history.retention=30d").run(context -> {
            assertThat(context.getBean(JobGuard.class).config().historySize()).isEqualTo(500);
            assertThat(context.getBean(JobGuard.class).config().historyRetention()).isEqualTo(Duration.ofDays(30));
        });
        runner.withPropertyValues("jobguard.history-size=40").run(context ->
                assertThat(context.getBean(JobGuard.class).config().historySize()).isEqualTo(40));
        runner.withPropertyValues("jobguard.history-size=40", "jobguard.history.size=40").run(context ->
                assertThat(context.getBean(JobGuard.class).config().historySize()).isEqualTo(40));
    }

    @Test
    void conflictingOrInvalidValuesFailTheStartupNamingTheProperty() {
        runner.withPropertyValues("jobguard.history-size=40", "jobguard.history.size=50").run(context ->
                assertThat(context).getFailure().hasStackTraceContaining("jobguard.history.size (50) and its older name"
                        + " jobguard.history-size (40) differ"));
        runner.withPropertyValues("jobguard.history.retention=-1d").run(context ->
                assertThat(context).getFailure().hasStackTraceContaining("jobguard.history.retention must not be negative"));
        runner.withPropertyValues("jobguard.history.size=-3").run(context ->
                assertThat(context).getFailure().hasStackTraceContaining("jobguard.history.size"));
    }
}
