package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobOptions;
import io.jobguard.spring.JobOptionsCustomizer;
import org.springframework.core.annotation.AnnotatedElementUtils;

import java.lang.reflect.Method;

/**
 * Applies {@code jobguard.default-wait-for}, {@code jobguard.busy-grace}, {@code jobguard.keep-alive}
 * and {@code jobguard.jobs.<name>.*}: a per-job property beats the annotation, the annotation beats
 * the global default.
 */
final class PropertiesJobOptionsCustomizer implements JobOptionsCustomizer {

    private final JobGuardProperties properties;

    PropertiesJobOptionsCustomizer(JobGuardProperties properties) {
        this.properties = properties;
    }

    @Override
    public JobOptions customize(JobOptions options, Method method) {
        ClusterSingleton annotation = AnnotatedElementUtils.findMergedAnnotation(method, ClusterSingleton.class);
        boolean annotatedWaitFor = annotation != null && !annotation.waitFor().isBlank();
        boolean annotatedBusyGrace = annotation != null && !annotation.busyGrace().isBlank();
        JobOptions.Builder builder = options.toBuilder();
        if (properties.defaultWaitFor() != null && !annotatedWaitFor) {
            builder.waitFor(properties.defaultWaitFor());
        }
        if (properties.busyGrace() != null && !annotatedBusyGrace) {
            builder.busyGrace(properties.busyGrace());
        }
        if (!properties.keepAlive()) {
            builder.keepAlive(false);
        }
        JobOverrideProperties job = properties.jobs().get(options.name());
        if (job != null) {
            if (job.lease() != null) {
                builder.lease(job.lease());
                // defaults derived from the annotation's lease follow the new lease (null: derive again)
                if (!annotatedWaitFor) {
                    builder.waitFor(properties.defaultWaitFor());
                }
                if (!annotatedBusyGrace) {
                    builder.busyGrace(properties.busyGrace());
                }
            }
            if (job.waitFor() != null) {
                builder.waitFor(job.waitFor());
            }
            if (job.busyGrace() != null) {
                builder.busyGrace(job.busyGrace());
            }
            if (job.type() != null) {
                builder.type(job.type());
            }
            if (job.keepAlive() != null) {
                builder.keepAlive(job.keepAlive());
            }
        }
        return builder.build();
    }
}
