package io.jobguard.spring.it;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A guarded job every second, traced through Micrometer Tracing's Brave bridge into real Brave spans
 * (kept in {@link Spans}); the registry and the job come from {@link TracingBridgeScheduling}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
@Import(TracingBridgeScheduling.class)
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
    Tracer tracer(Tracing tracing) {
        return new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                new BraveBaggageManager());
    }
}
