package io.jobguard.spring.it;

import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A guarded schedule that goes around job-guard's nominal-fire-time scheduler
 * fails the startup naming the method; {@code jobguard.scheduler-bypass=warn} starts and says so.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class GuardInPathIT {

    private static final String METHOD = "@ClusterSingleton " + BypassApps.Tick.class.getName() + ".run()";

    @Test
    void configurerWithItsOwnSchedulerFailsStartupNamingTheMethod(RedisServerProcess redis) {
        assertThatThrownBy(() -> start(redis, "test.case=own-scheduler").close())
                .hasStackTraceContaining(METHOD + " (job 'Tick.run') did not go through job-guard's")
                .hasStackTraceContaining("jobguard.scheduler-bypass=warn");
    }

    @Test
    void wrapperThatHidesTheMethodFailsStartup(RedisServerProcess redis) {
        assertThatThrownBy(() -> start(redis, "test.case=wrapper").close())
                .hasStackTraceContaining(METHOD + " (job 'Tick.run') did not go through job-guard's");
    }

    @Test
    void warnModeStartsSaysSoAndTheJobStillRunsGuarded(RedisServerProcess redis, CapturedOutput output) {
        try (ConfigurableApplicationContext ctx = start(redis, "test.case=own-scheduler",
                "jobguard.scheduler-bypass=warn")) {
            assertThat(output.getOut()).contains(METHOD + " (job 'Tick.run') did not go through job-guard's")
                    .contains("jobguard.scheduler-bypass=warn: starting anyway");
            // this context's job ran (a latch shared with the other tests' contexts may have been counted down by them)
            await().atMost(Duration.ofSeconds(30)).until(() -> output.getOut().contains("called directly"));
            assertThat(ctx.getBean(GuardedJobRegistry.class).forName("Tick.run").orElseThrow().routed()).isFalse();
            assertThat(output.getOut()).contains("job-guard: job 'Tick.run' called directly (not by its schedule)");
        }
    }

    @Test
    void plainSchedulingIsRoutedByType(RedisServerProcess redis) {
        try (ConfigurableApplicationContext ctx = start(redis, "test.case=plain")) {
            assertThat(ctx.getBean(GuardedJobRegistry.class).forName("Tick.run").orElseThrow().routed()).isTrue();
        }
    }

    @Test
    void unknownModeNamesTheProperty(RedisServerProcess redis) {
        assertThatThrownBy(() -> start(redis, "test.case=plain", "jobguard.scheduler-bypass=maybe").close())
                .hasStackTraceContaining("jobguard.scheduler-bypass must be 'fail' or 'warn', got 'maybe'");
    }

    private static ConfigurableApplicationContext start(RedisServerProcess redis, String... props) {
        List<String> all = new ArrayList<>(Arrays.asList(props));
        all.add("jobguard.node-id=bypass");
        return Nodes.context(redis, BypassApps.class, WebApplicationType.NONE, all);
    }
}
