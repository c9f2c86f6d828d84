package io.jobguard.spring.it;

import io.jobguard.spring.observation.RunObservationContext;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every guarded firing is one {@code jobguard.run} observation, with job, type and
 * outcome as low-cardinality keys and fire time, node and fencing token as high-cardinality ones,
 * whose parent is Spring's observation of the scheduled method.
 */
@WithRedis
class TracingIT {

    @Test
    void oneObservationPerFiringNestedUnderTheScheduledMethodObservation(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, TracedApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=traced-node", "jobguard.namespace=traced"))) {
            TestObservationRegistry registry = app.getBean(TestObservationRegistry.class);
            AtomicReference<List<RunObservationContext>> runs = new AtomicReference<>(List.of());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                TestObservationRegistryAssert.assertThat(registry).hasHandledContextsThatSatisfy(contexts -> {
                    List<RunObservationContext> found = new ArrayList<>();
                    contexts.stream().filter(RunObservationContext.class::isInstance)
                            .map(RunObservationContext.class::cast).forEach(found::add);
                    assertThat(found).hasSizeGreaterThanOrEqualTo(3);
                    runs.set(found);
                });
            });
            List<RunObservationContext> firings = runs.get().stream().filter(c -> c.outcome() != null).toList();
            assertThat(firings).hasSizeGreaterThanOrEqualTo(2);
            assertThat(firings.stream().map(RunObservationContext::nominalFireTime).distinct().count())
                    .as("one observation per firing").isEqualTo(firings.size());
            for (RunObservationContext c : firings) {
                assertThat(c.getName()).isEqualTo("jobguard.run");
                assertThat(c.getContextualName()).isEqualTo("jobguard run traced");
                assertThat(c.getLowCardinalityKeyValues()).contains(KeyValue.of("job", "traced"),
                        KeyValue.of("type", "RETURN"), KeyValue.of("outcome", "RAN"));
                assertThat(c.getHighCardinalityKeyValues()).contains(KeyValue.of("node", "traced-node"),
                        KeyValue.of("fire.time", c.nominalFireTime().toString()));
                assertThat(Long.parseLong(c.getHighCardinalityKeyValue("fencing.token").getValue())).isPositive();
                assertThat(c.getParentObservation()).as("parented to the scheduled method's observation").isNotNull();
                Observation.ContextView parent = c.getParentObservation().getContextView();
                assertThat(parent.getName()).isEqualTo("tasks.scheduled.execution");
                assertThat(parent.getLowCardinalityKeyValue("code.function").getValue()).isEqualTo("run");
            }
            TestObservationRegistryAssert.assertThat(registry).hasObservationWithNameEqualTo("jobguard.run").that()
                    .hasBeenStarted().hasBeenStopped();
        }
    }

    @Test
    void batchAcquisitionIsObservedWithItsKeyCountAndOutcome(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, TracedApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=traced-batch", "jobguard.namespace=traced-batch"))) {
            TestObservationRegistry registry = app.getBean(TestObservationRegistry.class);
            assertThat(app.getBean(TracedApp.Skus.class).reserve(List.of("a", "b", "c"))).isEqualTo(3);
            TestObservationRegistryAssert.assertThat(registry).hasObservationWithNameEqualTo("jobguard.batch").that()
                    .hasContextualNameEqualTo("jobguard batch sku")
                    .hasLowCardinalityKeyValue("namespace", "sku")
                    .hasLowCardinalityKeyValue("outcome", "ACQUIRED")
                    .hasHighCardinalityKeyValue("key.count", "3")
                    .hasBeenStarted().hasBeenStopped();
        }
    }
}
