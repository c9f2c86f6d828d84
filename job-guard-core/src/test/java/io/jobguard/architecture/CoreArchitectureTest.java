package io.jobguard.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import static org.assertj.core.api.Assertions.assertThat;

import io.jobguard.testing.ArchitectureRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The core module's architecture: Spring only as the Redis client abstraction (spring-data-redis,
 * its exceptions, and the task executor of release notifications), plus spring-core's AOT hint API for the runtime
 * hints of the resources it ships, and only in the packages that talk to Redis or hold those resources; no package cycles; no static mutable state except loggers, constants and the documented
 * thread binding of the running job's {@code RunContext}. Across the whole repository, no two top-level types of
 * main code share a simple name.
 */
class CoreArchitectureTest {

    private static final JavaClasses CORE = ArchitectureRules.mainClasses("io.jobguard");

    @Test
    void springIsOnlyTheRedisClientAbstraction() {
        ArchitectureRules.springOnlyWhereAllowed(
                new String[] {"org.springframework.data.redis..", "org.springframework.dao..",
                        "org.springframework.core.task..", "org.springframework.aot.hint.."},
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
        ArchitectureRules.noStaticMutableState("io.jobguard.internal.engine.EnginePermit.CURRENT").check(CORE);
    }

    @Test
    void internalPackagesAreUsedOnlyByJobGuard() {
        ArchitectureRules.internalUsedOnlyFrom("io.jobguard..").check(CORE);
    }

    /**
     * A simple name means one type in the whole repository's main code (every module, examples included), so a name
     * in a log line, a stack trace or a document is never ambiguous. Nested types are named with their owner
     * ({@code BatchLockConfig.Builder}) and are not counted.
     */
    @Test
    void topLevelTypeNamesAreUniqueAcrossModules() throws IOException {
        Path root = RepositorySources.root();
        Map<String, List<String>> byName = new TreeMap<>();
        for (Path file : RepositorySources.javaFiles(root, "src/main/java")) {
            String name = file.getFileName().toString();
            if (!name.equals("package-info.java") && !name.equals("module-info.java")) {
                byName.computeIfAbsent(name.substring(0, name.length() - ".java".length()), k -> new ArrayList<>())
                        .add(root.relativize(file).toString());
            }
        }
        assertThat(byName).as("main types found").containsKeys("JobGuard", "ClusterSingletonListener");
        byName.values().removeIf(files -> files.size() < 2);
        assertThat(byName).as("simple names declared by more than one main type").isEmpty();
    }

    /**
     * Every package of the library modules (every {@code job-guard-*} module) says what it holds and
     * what it guarantees in a {@code package-info.java}.
     */
    @Test
    void everyLibraryPackageHasAPackageInfo() throws IOException {
        Path root = RepositorySources.root();
        Set<Path> packages = new TreeSet<>();
        Set<Path> described = new TreeSet<>();
        for (Path file : RepositorySources.javaFiles(root, "src/main/java")) {
            Path relative = root.relativize(file);
            if (!relative.getName(0).toString().startsWith("job-guard-")
                    || file.getFileName().toString().equals("module-info.java")) {
                continue;
            }
            (file.getFileName().toString().equals("package-info.java") ? described : packages)
                    .add(relative.getParent());
        }
        assertThat(packages).as("packages of the library modules").hasSizeGreaterThan(20);
        packages.removeAll(described);
        assertThat(packages).as("packages without a package-info.java").isEmpty();
    }

    /**
     * Every package-info.java of the library modules names every top-level type of its package (its simple name as a
     * whole word, as in {@code {@link JobGuard}} or {@code {@code JobGuard}}), so a reader of the package's page
     * learns what each class is for. A source file declares one top-level type, named as the file.
     */
    @Test
    void everyPackageInfoNamesEveryTypeOfItsPackage() throws IOException {
        Path root = RepositorySources.root();
        Map<Path, Set<String>> typesByPackage = new TreeMap<>();
        for (Path file : RepositorySources.javaFiles(root, "src/main/java")) {
            Path relative = root.relativize(file);
            String name = file.getFileName().toString();
            if (relative.getName(0).toString().startsWith("job-guard-") && !name.equals("package-info.java")
                    && !name.equals("module-info.java")) {
                typesByPackage.computeIfAbsent(file.getParent(), k -> new TreeSet<>())
                        .add(name.substring(0, name.length() - ".java".length()));
            }
        }
        assertThat(typesByPackage).as("packages of the library modules").hasSizeGreaterThan(20);
        Map<String, Set<String>> unnamed = new TreeMap<>();
        typesByPackage.forEach((dir, types) -> {
            Path packageInfo = dir.resolve("package-info.java");
            String text = readIfPresent(packageInfo);
            for (String type : types) {
                if (!Pattern.compile("(?<![\\w$])" + Pattern.quote(type) + "(?![\\w$])").matcher(text).find()) {
                    unnamed.computeIfAbsent(root.relativize(packageInfo).toString(), k -> new TreeSet<>()).add(type);
                }
            }
        });
        assertThat(unnamed).as("types each package-info.java does not name").isEmpty();
    }

    private static String readIfPresent(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
