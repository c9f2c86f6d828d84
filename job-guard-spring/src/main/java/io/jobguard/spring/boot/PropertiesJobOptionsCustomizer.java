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
        if (properties.getDefaultWaitFor() != null && !annotatedWaitFor) {
            builder.waitFor(properties.getDefaultWaitFor());
        }
        if (properties.getBusyGrace() != null && !annotatedBusyGrace) {
            builder.busyGrace(properties.getBusyGrace());
        }
        if (!properties.isKeepAlive()) {
            builder.keepAlive(false);
        }
        JobOverrideProperties job = properties.getJobs().get(options.name());
        if (job != null) {
            if (job.getLease() != null) {
                builder.lease(job.getLease());
                // defaults derived from the annotation's lease follow the new lease (null: derive again)
                if (!annotatedWaitFor) {
                    builder.waitFor(properties.getDefaultWaitFor());
                }
                if (!annotatedBusyGrace) {
                    builder.busyGrace(properties.getBusyGrace());
                }
            }
            if (job.getWaitFor() != null) {
                builder.waitFor(job.getWaitFor());
            }
            if (job.getBusyGrace() != null) {
                builder.busyGrace(job.getBusyGrace());
            }
            if (job.getType() != null) {
                builder.type(job.getType());
            }
            if (job.getKeepAlive() != null) {
                builder.keepAlive(job.getKeepAlive());
            }
        }
        return builder.build();
    }
}
