package io.jobguard.spring.boot;

import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.spring.firing.GuardedJobRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Warns once the context is refreshed (every guarded method and Quartz job is known by then) about
 * each {@code jobguard.jobs.<name>} entry that matches no {@code @ClusterSingleton @Scheduled} job of
 * this node: a typo there would otherwise silently leave the annotation's options in force.
 */
final class JobPropertiesCheck implements ApplicationListener<ContextRefreshedEvent> {

    private static final Logger log = LoggerFactory.getLogger(JobPropertiesCheck.class);

    private final JobGuardProperties properties;
    private final ObjectProvider<GuardedJobRegistry> registry;
    private final ObjectProvider<GuardedJobsContributor> contributors;
    private final AtomicBoolean done = new AtomicBoolean();

    JobPropertiesCheck(JobGuardProperties properties, ObjectProvider<GuardedJobRegistry> registry,
                       ObjectProvider<GuardedJobsContributor> contributors) {
        this.properties = properties;
        this.registry = registry;
        this.contributors = contributors;
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        if (properties.jobs().isEmpty() || !done.compareAndSet(false, true)) {
            return;
        }
        Set<String> scheduled = new TreeSet<>();
        registry.ifAvailable(r -> r.all().forEach(j -> scheduled.add(j.options().name())));
        Set<String> others = new TreeSet<>();
        contributors.orderedStream().forEach(c -> {
            try {
                c.guardedJobs().forEach(j -> others.add(j.name()));
            } catch (RuntimeException e) {
                log.warn("job-guard: contributor {} failed while checking jobguard.jobs (its jobs count as unknown "
                        + "names here): {}", c, e.toString());
            }
        });
        for (String name : properties.jobs().keySet()) {
            if (scheduled.contains(name)) {
                continue;
            }
            if (others.contains(name)) {
                log.warn("job-guard: jobguard.jobs.{} is ignored: '{}' is not a @ClusterSingleton @Scheduled job "
                        + "(a Quartz job takes its options from @ClusterSingleton on its class or its JobDataMap)",
                        name, name);
            } else {
                log.warn("job-guard: jobguard.jobs.{} matches no guarded job on node {} and is ignored; guarded "
                        + "jobs here: {}", name, properties.nodeId() == null ? "(default id)" : properties.nodeId(),
                        scheduled);
            }
        }
    }
}
