package io.jobguard.spring.it;

import brave.handler.MutableSpan;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Observations through a real tracing bridge (Micrometer Tracing 1.7 to Brave): each guarded firing
 * is one Brave span {@code jobguard run traced} with the job, type, outcome, fire time, node and
 * fencing token as tags, a child of the span of Spring's scheduled-method observation in the same trace.
 */
@WithRedis
class TracingBridgeIT {

    @Test
    void oneBraveSpanPerFiringChildOfTheScheduledMethodSpan(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, BraveTracedApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=brave-node", "jobguard.namespace=brave"))) {
            BraveTracedApp.Spans spans = app.getBean(BraveTracedApp.Spans.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> runs(spans).size() >= 2);
            Map<String, MutableSpan> byId = spans.finished.stream()
                    .collect(Collectors.toMap(MutableSpan::id, Function.identity(), (a, b) -> a));
            List<MutableSpan> runs = runs(spans);
            assertThat(runs.stream().map(s -> s.tag("fire.time")).distinct().count()).as("one span per firing")
                    .isEqualTo(runs.size());
            for (MutableSpan run : runs) {
                assertThat(run.tags()).containsEntry("job", "traced").containsEntry("type", "RETURN")
                        .containsEntry("outcome", "RAN").containsEntry("node", "brave-node")
                        .containsKeys("fire.time", "fencing.token");
                assertThat(Long.parseLong(run.tag("fencing.token"))).isPositive();
                assertThat(run.parentId()).as("a child span").isNotNull();
                await().atMost(Duration.ofSeconds(5)).until(() -> spans.finished.stream()
                        .anyMatch(s -> s.id().equals(run.parentId())));
                MutableSpan parent = spans.finished.stream().filter(s -> s.id().equals(run.parentId())).findFirst()
                        .orElseGet(() -> byId.get(run.parentId()));
                assertThat(parent.name()).as("the scheduled method's span").isEqualTo("task traced.run");
                assertThat(parent.traceId()).isEqualTo(run.traceId());
            }
        }
    }

    private static List<MutableSpan> runs(BraveTracedApp.Spans spans) {
        return spans.finished.stream().filter(s -> "jobguard run traced".equals(s.name())).toList();
    }
}
