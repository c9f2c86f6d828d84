package io.jobguard.architecture;

import io.jobguard.testing.ArchitectureRules;
import io.jobguard.testing.ModuleExportsCheck;
import io.jobguard.testing.PublicApiCheck;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

/**
 * docs/api.md lists every public type of job-guard-core (the failure prints the section to paste), and the module
 * exports exactly the packages of its API and SPI types.
 */
class CorePublicApiTest {

    @Test
    void docsApiListsEveryPublicType() {
        PublicApiCheck.check("job-guard-core", Path.of("..", "docs", "api.md"),
                ArchitectureRules.mainClasses("io.jobguard"), Set.of("io.jobguard.store"));
    }

    @Test
    void moduleInfoExportsExactlyTheApiOfDocsApi() {
        ModuleExportsCheck.check("job-guard-core", Path.of("src", "main", "java", "module-info.java"),
                Path.of("..", "docs", "api.md"), ArchitectureRules.mainClasses("io.jobguard"));
    }
}
