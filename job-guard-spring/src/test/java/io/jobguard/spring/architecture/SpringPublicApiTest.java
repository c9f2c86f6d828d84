package io.jobguard.spring.architecture;

import io.jobguard.testing.ArchitectureRules;
import io.jobguard.testing.PublicApiCheck;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

/** docs/api.md lists every public type of job-guard-spring; the failure prints the section to paste. */
class SpringPublicApiTest {

    @Test
    void docsApiListsEveryPublicType() {
        PublicApiCheck.check("job-guard-spring", Path.of("..", "docs", "api.md"),
                ArchitectureRules.mainClasses("io.jobguard.spring"), Set.of());
    }
}
