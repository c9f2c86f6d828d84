package io.jobguard.spring.it;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

/**
 * What {@link BraveTracedApp} and {@link OtelTracedApp} share: an observation registry that traces
 * through the app's Micrometer {@link Tracer} bean (wired as Boot's tracing auto-configuration wires
 * it, with {@link DefaultTracingObservationHandler}), used by Spring for scheduled methods too, and
 * the guarded every-second job {@link TracedApp.Traced}.
 */
@Configuration(proxyBeanMethods = false)
class TracingBridgeScheduling {

    @Bean
    ObservationRegistry observationRegistry(Tracer tracer) {
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
