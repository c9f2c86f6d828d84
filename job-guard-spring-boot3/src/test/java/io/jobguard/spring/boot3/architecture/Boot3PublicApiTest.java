package io.jobguard.spring.boot3.architecture;

import io.jobguard.testing.ArchitectureRules;
import io.jobguard.testing.ModuleExportsCheck;
import io.jobguard.testing.PublicApiCheck;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

/**
 * docs/api.md lists every public type of job-guard-spring-boot3 (the failure prints the section to paste), and the
 * module exports exactly the packages of its API and SPI types: none, so both Boot lines offer the same API.
 */
class Boot3PublicApiTest {

    @Test
    void docsApiListsEveryPublicType() {
        PublicApiCheck.check("job-guard-spring-boot3", Path.of("..", "docs", "api.md"),
                ArchitectureRules.mainClasses("io.jobguard.spring.boot3"), Set.of());
    }

    @Test
    void moduleInfoExportsExactlyTheApiOfDocsApi() {
        ModuleExportsCheck.check("job-guard-spring-boot3", Path.of("src", "main", "java", "module-info.java"),
                Path.of("..", "docs", "api.md"), ArchitectureRules.mainClasses("io.jobguard.spring.boot3"));
    }
}
