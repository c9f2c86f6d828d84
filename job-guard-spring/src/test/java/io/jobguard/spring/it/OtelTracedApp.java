package io.jobguard.spring.it;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

import java.util.List;

/**
 * The same guarded job as {@link BraveTracedApp}, traced through Micrometer Tracing's OpenTelemetry
 * bridge into real OpenTelemetry SDK spans, exported to an {@link InMemorySpanExporter}; the registry
 * and the job come from {@link TracingBridgeScheduling}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
@Import(TracingBridgeScheduling.class)
class OtelTracedApp {

    @Bean
    InMemorySpanExporter spanExporter() {
        return InMemorySpanExporter.create();
    }

    @Bean(destroyMethod = "close")
    SdkTracerProvider tracerProvider(InMemorySpanExporter exporter) {
        return SdkTracerProvider.builder().setSampler(Sampler.alwaysOn())
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    }

    @Bean
    Tracer tracer(SdkTracerProvider tracerProvider) {
        OtelCurrentTraceContext context = new OtelCurrentTraceContext();
        return new OtelTracer(tracerProvider.get("job-guard-test"), context, event -> {
        }, new OtelBaggageManager(context, List.of(), List.of()));
    }
}
