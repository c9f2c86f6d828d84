package io.jobguard.spring.it;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A guarded job every second, traced through Micrometer Tracing's Brave bridge into real Brave spans
 * (kept in {@link Spans}): the observation registry is wired as Boot's tracing auto-configuration
 * wires it, with {@link DefaultTracingObservationHandler}, and it is also Spring's registry for
 * scheduled methods.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class BraveTracedApp {

    /** The finished Brave spans. */
    static final class Spans extends SpanHandler {
        final List<MutableSpan> finished = new CopyOnWriteArrayList<>();

        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            finished.add(span);
            return true;
        }
    }

    @Bean
    Spans spans() {
        return new Spans();
    }

    @Bean(destroyMethod = "close")
    Tracing tracing(Spans spans) {
        return Tracing.newBuilder().localServiceName("traced").sampler(Sampler.ALWAYS_SAMPLE)
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build()).addSpanHandler(spans).build();
    }

    @Bean
    ObservationRegistry observationRegistry(Tracing tracing) {
        BraveTracer tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                new BraveBaggageManager());
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
