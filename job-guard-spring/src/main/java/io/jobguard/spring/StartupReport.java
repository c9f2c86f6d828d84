package io.jobguard.spring;

import io.jobguard.JobGuard;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.scheduling.annotation.ScheduledAnnotationBeanPostProcessor;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Says once, when the context is refreshed, that job-guard is on: one INFO line with the store
 * (its Redis endpoint), the namespace, this node's id and every guarded job with its schedule, so
 * that a guarded application at the default log level shows that it is guarded and by what. When
 * {@code @ClusterSingleton @Scheduled} methods exist but scheduling is not enabled (no
 * {@code @EnableScheduling}), nothing fires them and nothing else would say so: that is a WARN
 * naming the methods and the fix. A WARN, not a failure, because a guarded method may also be
 * called directly (it is then guarded too, see the README). On Spring Boot 3.x without job-guard-spring-boot3 the
 * application runs its guarded jobs, but without the two pieces Boot 3.5 spells with other types: that is a WARN
 * naming them and the artifact that brings them.
 */
final class StartupReport implements ApplicationListener<ContextRefreshedEvent> {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);
    /** A class of job-guard-spring-boot3, present exactly when that module is on the class path. */
    private static final String BOOT3_MODULE_MARKER = "io.jobguard.spring.boot3.Boot3HealthAutoConfiguration";

    private final ObjectProvider<JobGuard> guard;
    private final GuardedJobRegistry registry;
    private final ObjectProvider<GuardedJobsContributor> contributors;
    private final ListableBeanFactory beanFactory;
    private final AtomicBoolean done = new AtomicBoolean();

    StartupReport(ObjectProvider<JobGuard> guard, GuardedJobRegistry registry,
                  ObjectProvider<GuardedJobsContributor> contributors, ListableBeanFactory beanFactory) {
        this.guard = guard;
        this.registry = registry;
        this.contributors = contributors;
        this.beanFactory = beanFactory;
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        // a child context's refresh reaches this listener too: report only this context's own refresh
        if (event.getApplicationContext().getAutowireCapableBeanFactory() != beanFactory
                || !done.compareAndSet(false, true)) {
            return;
        }
        JobGuard engine = guard.getIfAvailable();
        List<String> jobs = jobs();
        if (engine == null) {
            if (!jobs.isEmpty()) {
                log.warn("job-guard: no JobGuard bean: guarded jobs {} are not guarded", jobs);
            }
            return;
        }
        log.info("job-guard on: store {}, namespace '{}', node '{}', {} guarded job(s){}", engine.store(),
                engine.config().namespace(), engine.config().nodeId(), jobs.size(),
                jobs.isEmpty() ? "" : ": " + String.join("; ", jobs));
        String missing = missingBoot3Module(event.getApplicationContext().getClassLoader());
        if (missing != null) {
            log.warn(missing);
        }
        if (!registry.all().isEmpty()
                && !schedulingEnabled()) {
            List<String> methods = new ArrayList<>();
            for (GuardedJob job : registry.all()) {
                methods.add(GuardedJob.describe(job.beanClass(), job.method()));
            }
            log.warn("job-guard: scheduling is not enabled, so the @ClusterSingleton @Scheduled methods {} never "
                    + "fire: add @EnableScheduling to a @Configuration class (e.g. next to @SpringBootApplication)",
                    methods);
        }
    }

    /**
     * On Spring Boot 3.x without job-guard-spring-boot3 on the class path, what the application lacks and how to get
     * it; {@code null} otherwise (Boot 4, no Boot at all, or the module present). job-guard-spring's own health
     * indicator and Lettuce customizer are compiled against Boot 4's types, so on Boot 3 they stay off.
     */
    static String missingBoot3Module(ClassLoader classLoader) {
        if (!ClassUtils.isPresent("org.springframework.boot.SpringBootVersion", classLoader)
                || ClassUtils.isPresent(BOOT3_MODULE_MARKER, classLoader)) {
            return null;
        }
        String version = SpringBootVersion.getVersion();
        if (version == null || !version.startsWith("3.")) {
            return null;
        }
        return "job-guard: Spring Boot " + version + " without job-guard-spring-boot3: guarded jobs run, but the "
                + "'jobguard' health indicator and the capped Lettuce reconnect back-off "
                + "(jobguard.redis.reconnect-delay-max) are missing: depend on io.jobguard:job-guard-spring-boot3 "
                + "(it brings job-guard-spring) instead of io.jobguard:job-guard-spring";
    }

    /**
     * Whether {@code @EnableScheduling} registered its post-processor. By type, not by bean name: the name is a
     * constant the compiler copies into this class, and Spring Framework 7 changed it, so a name compiled against
     * one line would miss the processor on the other.
     */
    private boolean schedulingEnabled() {
        return beanFactory.getBeanNamesForType(ScheduledAnnotationBeanPostProcessor.class, true, false).length > 0;
    }

    private List<String> jobs() {
        List<String> jobs = new ArrayList<>();
        for (GuardedJob job : registry.all()) {
            jobs.add(job.options().name() + " (" + job.schedule().describe() + ", " + job.options().type()
                    + ", lease " + job.options().lease() + ")");
        }
        contributors.orderedStream().forEach(c -> {
            try {
                for (GuardedJobsContributor.ContributedJob job : c.guardedJobs()) {
                    jobs.add(job.name() + " (" + (job.schedule() == null ? "schedule unknown" : job.schedule())
                            + ", " + job.type() + ", lease " + job.lease() + ")");
                }
            } catch (RuntimeException e) {
                log.debug("job-guard: contributor {} failed while listing guarded jobs: {}", c, e.toString());
            }
        });
        return jobs;
    }
}
