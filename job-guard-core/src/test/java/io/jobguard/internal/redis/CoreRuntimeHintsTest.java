package io.jobguard.internal.redis;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime hints job-guard-core contributes to Spring AOT, as Spring AOT finds them (every
 * {@code RuntimeHintsRegistrar} of every {@code META-INF/spring/aot.factories} on the class path), cover every
 * resource the module ships and reads (or tells applications to read) by name: each Lua script present in the
 * built classes' {@code io/jobguard/redis/} folder and each fence DDL file in {@code io/jobguard/fencing/}. The
 * files are listed from the folders themselves, so a script added without a hint fails here.
 */
class CoreRuntimeHintsTest {

    private static final RuntimeHints HINTS = registered();

    @Test
    void everyLuaScriptIsIncluded() throws Exception {
        List<String> scripts = shipped("io/jobguard/redis", ".lua");
        assertThat(scripts).as("the scripts found").contains("io/jobguard/redis/prelude.lua",
                "io/jobguard/redis/run-acquire.lua", "io/jobguard/redis/batch-acquire.lua").hasSizeGreaterThan(10);
        assertThat(scripts).allSatisfy(script -> assertThat(RuntimeHintsPredicates.resource().forResource(script))
                .as("resource hint for %s", script).accepts(HINTS));
    }

    @Test
    void everyFenceDdlFileIsIncluded() throws Exception {
        List<String> ddl = shipped("io/jobguard/fencing", ".sql");
        assertThat(ddl).as("the DDL files found").contains("io/jobguard/fencing/fence-postgresql.sql",
                "io/jobguard/fencing/fence-mysql.sql", "io/jobguard/fencing/fence-h2.sql");
        assertThat(ddl).allSatisfy(file -> assertThat(RuntimeHintsPredicates.resource().forResource(file))
                .as("resource hint for %s", file).accepts(HINTS));
    }

    @Test
    void theHintsNameOnlyTheShippedFolders() {
        // a pattern wider than the folders would pull unrelated resources into every application's image
        assertThat(RuntimeHintsPredicates.resource().forResource("io/jobguard/redis/notes.txt")).rejects(HINTS);
        assertThat(RuntimeHintsPredicates.resource().forResource("io/jobguard/other/run-acquire.lua")).rejects(HINTS);
    }

    /** The hints as Spring AOT collects them: every registrar listed in the class path's aot.factories. */
    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        ClassLoader loader = CoreRuntimeHintsTest.class.getClassLoader();
        SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories", loader)
                .load(RuntimeHintsRegistrar.class).forEach(registrar -> registrar.registerHints(hints, loader));
        return hints;
    }

    /** The resource names of the files with the suffix in the main classes' folder (not the test resources'). */
    private static List<String> shipped(String folder, String suffix) throws IOException, URISyntaxException {
        Path classes = Path.of(LuaScript.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(classes).as("job-guard-core's main classes as a folder").isDirectory();
        try (Stream<Path> files = Files.list(classes.resolve(folder))) {
            return files.map(f -> folder + "/" + f.getFileName()).filter(name -> name.endsWith(suffix)).sorted().toList();
        }
    }
}
