package io.jobguard.spring.actuator;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * Lets the {@code jobguard} endpoint and its dashboard work in a native image built with Spring AOT: reflection on
 * every record the endpoint writes as JSON (its read, write and delete answers and every type they hold, walked by
 * Spring's {@link BindingReflectionHintsRegistrar}: the records, their accessors and constructors), the ShedLock
 * provider's held locks when ShedLock is present, and the dashboard's files ({@code io/jobguard/spring/dashboard/*}),
 * which {@link JobGuardDashboard} reads by name. Registered for every application with job-guard-spring through
 * its {@code META-INF/spring/aot.factories}, whether or not the endpoint is exposed at build time (exposure is
 * decided by properties, which may differ at run time); Spring instantiates it through that file only.
 */
final class ActuatorRuntimeHints implements RuntimeHintsRegistrar {

    /** The pattern of the dashboard's files, as {@link JobGuardDashboard} reads them. */
    static final String DASHBOARD = "io/jobguard/spring/dashboard/*";

    /** The held locks of job-guard's ShedLock provider: the report's {@code shedLocks} list, typed {@code List<?>}. */
    static final String HELD_LOCK = "io.jobguard.shedlock.JobGuardLockProvider$HeldLock";

    /** Present when ShedLock is; the held-lock record cannot be loaded without it (its owner implements ShedLock). */
    private static final String SHEDLOCK = "net.javacrumbs.shedlock.core.ExtensibleLockProvider";

    private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        // the types the endpoint's operations return, each the root of what Jackson writes
        bindings.registerReflectionHints(hints.reflection(), JobGuardEndpoint.NodeReport.class,
                JobGuardEndpoint.JobDetail.class, JobGuardEndpoint.Control.class, JobGuardEndpoint.ForceRelease.class,
                JobGuardEndpoint.HistoryPage.class);
        if (ClassUtils.isPresent(SHEDLOCK, classLoader)) {
            bindings.registerReflectionHints(hints.reflection(), ClassUtils.resolveClassName(HELD_LOCK, classLoader));
        }
        hints.resources().registerPattern(DASHBOARD);
    }
}
