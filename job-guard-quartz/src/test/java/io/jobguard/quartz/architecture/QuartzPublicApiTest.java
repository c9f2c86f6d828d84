package io.jobguard.quartz.architecture;

import io.jobguard.testing.ArchitectureRules;
import io.jobguard.testing.PublicApiCheck;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

/** docs/api.md lists every public type of job-guard-quartz; the failure prints the section to paste. */
class QuartzPublicApiTest {

    @Test
    void docsApiListsEveryPublicType() {
        PublicApiCheck.check("job-guard-quartz", Path.of("..", "docs", "api.md"),
                ArchitectureRules.mainClasses("io.jobguard.quartz"), Set.of());
    }
}
