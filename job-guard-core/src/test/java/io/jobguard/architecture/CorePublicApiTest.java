package io.jobguard.architecture;

import io.jobguard.testing.ArchitectureRules;
import io.jobguard.testing.PublicApiCheck;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

/** docs/api.md lists every public type of job-guard-core; the failure prints the section to paste. */
class CorePublicApiTest {

    @Test
    void docsApiListsEveryPublicType() {
        PublicApiCheck.check("job-guard-core", Path.of("..", "docs", "api.md"),
                ArchitectureRules.mainClasses("io.jobguard"), Set.of("io.jobguard.store"));
    }
}
