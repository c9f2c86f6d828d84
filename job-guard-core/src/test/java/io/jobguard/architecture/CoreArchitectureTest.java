package io.jobguard.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.jobguard.testing.ArchitectureRules;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The core module's architecture: Spring only as the Redis client abstraction (spring-data-redis,
 * its exceptions, and the task executor of release notifications) and only in the packages that talk
 * to Redis; no package cycles; no static mutable state except loggers, constants and the documented
 * thread binding of the running job's {@code RunContext}.
 */
class CoreArchitectureTest {

    private static final JavaClasses CORE = ArchitectureRules.mainClasses("io.jobguard");

    @Test
    void springIsOnlyTheRedisClientAbstraction() {
        ArchitectureRules.springOnlyWhereAllowed(
                new String[] {"org.springframework.data.redis..", "org.springframework.dao..",
                        "org.springframework.core.task.."},
                new String[] {"io.jobguard.redis..", "io.jobguard.internal.redis..", "io.jobguard.fencing..",
                        "io.jobguard.shedlock.."})
                .check(CORE);
    }

    @Test
    void packagesHaveNoCycles() {
        ArchitectureRules.noPackageCycles("io.jobguard", List.of(
                "io.jobguard.JobGuard -> io.jobguard.internal.engine",
                "io.jobguard.RunContext -> io.jobguard.internal.engine")).check(CORE);
    }

    @Test
    void noStaticMutableState() {
        ArchitectureRules.noStaticMutableState("io.jobguard.internal.engine.RunPermit.CURRENT").check(CORE);
    }

    @Test
    void internalPackagesAreUsedOnlyByJobGuard() {
        ArchitectureRules.internalUsedOnlyFrom("io.jobguard..").check(CORE);
    }
}
