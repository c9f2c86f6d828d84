package io.jobguard.quartz.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.jobguard.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

import java.util.Set;

/**
 * The boundaries of {@code job-guard-quartz}'s main code, checked on its compiled classes with the rules every module
 * shares ({@link ArchitectureRules}, core's test-jar): no package cycles, no static mutable state (loggers and
 * constants only), and no use of core's internal packages beyond the one listed class (still to be moved to core's
 * public API).
 */
class QuartzArchitectureTest {

    /** Use core's internal helpers: names of jobs, and the one resolution of a job's options. */
    static final Set<String> USES_CORE_INTERNALS = Set.of("io.jobguard.quartz.boot.QuartzGuardedJobsContributor",
            "io.jobguard.quartz.QuartzJobOptions");

    private static final JavaClasses MAIN = ArchitectureRules.mainClasses("io.jobguard.quartz");

    @Test
    void packagesHaveNoCycles() {
        ArchitectureRules.noPackageCycles("io.jobguard.quartz").check(MAIN);
    }

    @Test
    void staticFieldsAreLoggersAndConstantsOnly() {
        ArchitectureRules.noStaticMutableState().check(MAIN);
    }

    @Test
    void coreInternalsAreUsedOnlyByTheListedClass() {
        ArchitectureRules.coreInternalsUsedOnlyBy(MAIN, USES_CORE_INTERNALS);
    }
}
