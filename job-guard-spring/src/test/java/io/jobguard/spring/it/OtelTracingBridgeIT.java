package io.jobguard.spring.it;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Observations through the OpenTelemetry bridge (Micrometer Tracing 1.7 to the OpenTelemetry SDK),
 * unchanged from the Brave one ({@link TracingBridgeIT}): each guarded firing is one span
 * {@code jobguard run traced} with the job, type, outcome, fire time, node and fencing token as
 * attributes, a child of the span of Spring's scheduled-method observation in the same trace.
 */
@WithRedis
class OtelTracingBridgeIT {

    @Test
    void oneOpenTelemetrySpanPerFiringChildOfTheScheduledMethodSpan(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, OtelTracedApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=otel-node", "jobguard.namespace=otel"))) {
            InMemorySpanExporter exporter = app.getBean(InMemorySpanExporter.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> runs(exporter).size() >= 2);
            List<SpanData> runs = runs(exporter);
            assertThat(runs.stream().map(s -> attribute(s, "fire.time")).distinct().count()).as("one span per firing")
                    .isEqualTo(runs.size());
            for (SpanData run : runs) {
                assertThat(attribute(run, "job")).isEqualTo("traced");
                assertThat(attribute(run, "type")).isEqualTo("RETURN");
                assertThat(attribute(run, "outcome")).isEqualTo("RAN");
                assertThat(attribute(run, "node")).isEqualTo("otel-node");
                assertThat(attribute(run, "fire.time")).isNotBlank();
                assertThat(Long.parseLong(attribute(run, "fencing.token"))).isPositive();
                assertThat(run.getParentSpanContext().isValid()).as("a child span").isTrue();
                await().atMost(Duration.ofSeconds(5)).until(() -> parent(exporter, run).isPresent());
                SpanData parent = parent(exporter, run).orElseThrow();
                assertThat(parent.getName()).as("the scheduled method's span").isEqualTo("task traced.run");
                assertThat(parent.getTraceId()).isEqualTo(run.getTraceId());
            }
        }
    }

    private static List<SpanData> runs(InMemorySpanExporter exporter) {
        return exporter.getFinishedSpanItems().stream().filter(s -> "jobguard run traced".equals(s.getName())).toList();
    }

    private static Optional<SpanData> parent(InMemorySpanExporter exporter, SpanData child) {
        return exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getSpanId().equals(child.getParentSpanId())).findFirst();
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }
}
