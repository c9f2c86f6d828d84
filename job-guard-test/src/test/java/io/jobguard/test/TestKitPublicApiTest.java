package io.jobguard.test;

import io.jobguard.testing.ArchitectureRules;
import io.jobguard.testing.ModuleExportsCheck;
import io.jobguard.testing.PublicApiCheck;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

/**
 * docs/api.md lists every public type of job-guard-test (the failure prints the section to paste), and the module
 * exports exactly the packages of its API types.
 */
class TestKitPublicApiTest {

    @Test
    void docsApiListsEveryPublicType() {
        PublicApiCheck.check("job-guard-test", Path.of("..", "docs", "api.md"),
                ArchitectureRules.mainClasses("io.jobguard.test"), Set.of());
    }

    @Test
    void moduleInfoExportsExactlyTheApiOfDocsApi() {
        ModuleExportsCheck.check("job-guard-test", Path.of("src", "main", "java", "module-info.java"),
                Path.of("..", "docs", "api.md"), ArchitectureRules.mainClasses("io.jobguard.test"));
    }
}
