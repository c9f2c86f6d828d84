package io.jobguard.spring.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.jobguard.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

import java.util.Set;

/**
 * The boundaries of {@code job-guard-spring}'s main code, checked on its compiled classes with the rules every module
 * shares ({@link ArchitectureRules}, core's test-jar): no package cycles, no static mutable state (loggers and
 * constants only), and no use of core's internal packages beyond the listed classes (each still to be moved to core's
 * public API).
 */
class SpringArchitectureTest {

    /**
     * The spring classes that still use {@code io.jobguard.internal} of core, each for small
     * helpers (names, rate-limited logs, daemon threads, time bounds) that core does not export yet.
     */
    static final Set<String> USES_CORE_INTERNALS = Set.of(
            "io.jobguard.spring.boot.JobGuardPropertiesValidator",
            "io.jobguard.spring.boot.ScheduleAgreementCheck",
            "io.jobguard.spring.boot.ClockSkewMonitor",
            "io.jobguard.spring.boot.JobGuardAutoConfiguration",
            "io.jobguard.spring.batch.BatchLockedMethod",
            // the one resolution of a job's options (core's io.jobguard.internal.options)
            "io.jobguard.spring.firing.GuardedMethodResolver",
            "io.jobguard.spring.firing.ClusterSingletonPostProcessor",
            "io.jobguard.spring.boot.JobGuardPropertiesSources");

    private static final JavaClasses MAIN = ArchitectureRules.mainClasses("io.jobguard.spring");

    @Test
    void packagesHaveNoCycles() {
        ArchitectureRules.noPackageCycles("io.jobguard.spring").check(MAIN);
    }

    @Test
    void staticFieldsAreLoggersAndConstantsOnly() {
        ArchitectureRules.noStaticMutableState().check(MAIN);
    }

    @Test
    void coreInternalsAreUsedOnlyByTheListedClasses() {
        ArchitectureRules.coreInternalsUsedOnlyBy(MAIN, USES_CORE_INTERNALS);
    }
}
