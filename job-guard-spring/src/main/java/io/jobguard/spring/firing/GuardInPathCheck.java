package io.jobguard.spring.firing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.Ordered;
import org.springframework.scheduling.config.ScheduledTaskHolder;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Refuses to start a context in which a {@code @ClusterSingleton} method's schedule does not go
 * through job-guard's nominal-fire-time scheduler. Such a method would still be guarded, but each
 * firing would be matched to a fire time read from the local clock after the fact: under clock
 * skew two nodes could then run one fire time twice or skip it. It happens when a
 * {@code SchedulingConfigurer} takes the registered tasks and schedules them itself, or wraps them
 * in a runnable that hides the method (some tracing agents do).
 *
 * <p>Runs when the context is refreshed, after Spring's {@code @Scheduled} post-processor has
 * scheduled every task (both listen for that event and both have the lowest order; the post-processor
 * is registered first, as a bean post-processor). It does nothing when the context has no
 * {@code @Scheduled} support ({@code @EnableScheduling} missing) or no guarded method. Mode
 * {@code warn} ({@code jobguard.scheduler-bypass=warn}) logs the same message at WARN instead.
 */
final class GuardInPathCheck implements ApplicationListener<ContextRefreshedEvent>, Ordered {

    /** The property that chooses between failing the context ({@code fail}) and a WARN ({@code warn}). */
    static final String PROPERTY = "jobguard.scheduler-bypass";

    private static final Logger log = LoggerFactory.getLogger(GuardInPathCheck.class);

    private final GuardedJobRegistry registry;
    private final boolean fail;

    /**
     * Creates the check.
     *
     * @param registry the guarded methods of this application context
     * @param mode     {@code fail} or {@code warn} (case-insensitive), the value of {@value #PROPERTY};
     *                 {@code null}: {@code fail}
     * @throws IllegalArgumentException naming the property when the mode is neither
     */
    GuardInPathCheck(GuardedJobRegistry registry, String mode) {
        this.registry = Objects.requireNonNull(registry, "registry");
        String m = mode == null ? "fail" : mode.trim().toLowerCase(Locale.ROOT);
        if (!m.equals("fail") && !m.equals("warn")) {
            throw new IllegalArgumentException(PROPERTY + " must be 'fail' or 'warn', got '" + mode + "'");
        }
        this.fail = m.equals("fail");
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        ApplicationContext context = event.getApplicationContext();
        if (context.getBeanNamesForType(ScheduledTaskHolder.class, false, false).length == 0) {
            return;
        }
        List<GuardedJob> bypassed = registry.all().stream()
                .filter(j -> j.schedule().kind() != ScheduleSpec.Kind.DISABLED && !j.routed())
                .toList();
        if (bypassed.isEmpty()) {
            return;
        }
        String message = message(bypassed);
        if (fail) {
            throw new IllegalStateException(message);
        }
        log.warn("{} ({}=warn: starting anyway)", message, PROPERTY);
    }

    static String message(List<GuardedJob> bypassed) {
        StringBuilder out = new StringBuilder("job-guard: the schedule of ");
        for (int i = 0; i < bypassed.size(); i++) {
            GuardedJob job = bypassed.get(i);
            out.append(i == 0 ? "" : ", ").append("@ClusterSingleton ")
                    .append(GuardedJob.describe(job.beanClass(), job.method()))
                    .append(" (job '").append(job.options().name()).append("')");
        }
        return out.append(" did not go through job-guard's nominal-fire-time scheduler, so its firings would")
                .append(" get fire times from this node's clock after the fact. A SchedulingConfigurer or a")
                .append(" TaskScheduler wrapper scheduled the task itself or wrapped it in a runnable that hides")
                .append(" the method. Fix: let such a configurer set a scheduler with")
                .append(" ScheduledTaskRegistrar.setScheduler(...) instead of scheduling the tasks itself, or make")
                .append(" its wrapper's toString() return the wrapped task's; or set ").append(PROPERTY)
                .append("=warn to start anyway").toString();
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
