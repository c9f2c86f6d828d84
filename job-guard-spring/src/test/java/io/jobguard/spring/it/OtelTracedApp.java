package io.jobguard.spring.it;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
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
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

import java.util.List;

/**
 * The same guarded job as {@link BraveTracedApp}, traced through Micrometer Tracing's OpenTelemetry
 * bridge into real OpenTelemetry SDK spans, exported to an {@link InMemorySpanExporter}: the
 * observation registry is wired as Boot's tracing auto-configuration wires it, with
 * {@link DefaultTracingObservationHandler}, and it is also Spring's registry for scheduled methods.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
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
    ObservationRegistry observationRegistry(SdkTracerProvider tracerProvider) {
        OtelCurrentTraceContext context = new OtelCurrentTraceContext();
        OtelTracer tracer = new OtelTracer(tracerProvider.get("job-guard-test"), context, event -> {
        }, new OtelBaggageManager(context, List.of(), List.of()));
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        return registry;
    }

    @Bean
    SchedulingConfigurer observedScheduling(ObservationRegistry observationRegistry) {
        return registrar -> registrar.setObservationRegistry(observationRegistry);
    }

    @Bean
    TracedApp.Traced traced() {
        return new TracedApp.Traced();
    }
}
