package io.jobguard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md names only types that exist: every backticked Java type name it mentions
 * ({@code JobGuard}, {@code AcquireResult.Status}, {@code io.jobguard.store.LeaseStore},
 * {@code JobGuard.admit(options, fireTime)}, {@code Type#method}) is declared in some {@code src/main} or
 * {@code src/test} tree of the repository, or is a JDK or library type on this test's class path; a
 * method named with its type is declared in that type's source file (not merely called there). The module table
 * lists exactly the reactor's modules, and for examples and compatibility exactly their modules, and the packages of
 * the library modules' main code each have a row. A class renamed, moved into another name or removed, a module or a
 * package added or removed, without the document following fails here with the name.
 */
class ArchitectureDocTest {

    /** A backticked span that is a type name: optional package, types joined by dots, optional member. */
    private static final Pattern TYPE_REFERENCE = Pattern.compile(
            "(?:[a-z][a-z0-9_]*\\.)*([A-Z][a-z][A-Za-z0-9]*(?:\\.[A-Z][A-Za-z0-9]*)*)(?:[.#]([a-z][A-Za-z0-9]*)(?:\\(.*\\))?)?");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    /** A record's header: its components between the parentheses after the name. */
    private static final Pattern RECORD_HEADER = Pattern.compile("\\brecord\\s+[A-Z]\\w*\\s*(?:<[^>]*>)?\\s*\\(([^)]*)\\)");
    /** First words of a line that calls a method rather than declaring one. */
    private static final Set<String> STATEMENTS = Set.of("return", "throw", "new", "else", "yield", "assert", "case");
    private static final Pattern DECLARATION = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");
    /** Packages of the outside types the document may name (the JDK's, ShedLock's, Spring Data Redis's). */
    private static final List<String> LIBRARY_PACKAGES = List.of("java.lang", "java.util", "java.util.concurrent",
            "java.time", "net.javacrumbs.shedlock.core", "org.springframework.data.redis.connection");
    /** Spring Boot's types the document names, which are not on core's class path (each Boot line has its own). */
    private static final Set<String> SPRING_BOOT_TYPES = Set.of("Health", "HealthIndicator",
            "ClientResourcesBuilderCustomizer");

    @Test
    void namesOnlyTypesThatExist() throws IOException {
        Path root = RepositorySources.root();
        Map<String, List<String>> sourcesByType = declaredTypes(root);
        String doc = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);

        Set<String> references = new TreeSet<>();
        Set<String> unknown = new TreeSet<>();
        Matcher span = BACKTICKED.matcher(doc);
        while (span.find()) {
            Matcher reference = TYPE_REFERENCE.matcher(span.group(1).trim());
            if (!reference.matches()) {
                continue;
            }
            references.add(span.group(1));
            String[] types = reference.group(1).split("\\.");
            for (String type : types) {
                if (!sourcesByType.containsKey(type) && !isLibraryType(type)) {
                    unknown.add(span.group(1) + " (no type " + type + ")");
                }
            }
            String member = reference.group(2);
            String owner = types[types.length - 1];
            if (member != null && sourcesByType.containsKey(owner) && sourcesByType.get(owner).stream()
                    .noneMatch(source -> declaresMethod(source, member))) {
                unknown.add(span.group(1) + " (no method " + member + " in " + owner + ")");
            }
        }

        // the extraction itself must see the document's type names, or this test would prove nothing
        assertThat(references).contains("JobGuard", "LeaseStore", "RedisLeaseStore", "AcquireResult");
        assertThat(unknown).as("type names in docs/architecture.md that no source declares").isEmpty();
    }

    /**
     * The module table lists exactly the reactor's modules: one row per module of the root pom, and for a module that
     * aggregates others (examples, compatibility) exactly its modules, backticked in the row's second cell.
     */
    @Test
    void moduleTableMatchesTheReactor() throws IOException {
        Path root = RepositorySources.root();
        String doc = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
        Map<String, String> rows = moduleRows(doc);
        List<String> modules = modules(root.resolve("pom.xml"));
        assertThat(modules).as("the root pom's modules").contains("job-guard-core", "examples", "compatibility");
        assertThat(rows.keySet()).as("modules in the table of docs/architecture.md")
                .containsExactlyInAnyOrderElementsOf(modules);
        for (String module : modules) {
            Path pom = root.resolve(module).resolve("pom.xml");
            List<String> children = modules(pom);
            if (children.isEmpty()) {
                continue;
            }
            Set<String> listed = new TreeSet<>();
            Matcher name = BACKTICKED.matcher(rows.get(module).split("\\|")[2]);
            while (name.find()) {
                listed.add(name.group(1));
            }
            assertThat(listed).as("the modules of %s listed in its row of docs/architecture.md", module)
                    .containsExactlyInAnyOrderElementsOf(children);
        }
    }

    /**
     * Every package of the library modules' main code (every {@code job-guard-*} module) has a row of
     * its own in the table under "## Modules and packages": it is backticked, fully qualified, in a row's second cell;
     * and every package a row names exists.
     */
    @Test
    void packageTableListsEveryLibraryPackage() throws IOException {
        Path root = RepositorySources.root();
        Set<String> packages = new TreeSet<>();
        for (Path file : RepositorySources.javaFiles(root, "src/main/java")) {
            Path relative = root.relativize(file);
            if (relative.getName(0).toString().startsWith("job-guard-")
                    && !file.getFileName().toString().equals("module-info.java")) {
                Path sources = root.resolve(relative.subpath(0, 4));
                packages.add(sources.relativize(file.getParent()).toString().replace('/', '.'));
            }
        }
        assertThat(packages).as("library packages found").contains("io.jobguard", "io.jobguard.spring.firing");
        String doc = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
        Set<String> rows = new TreeSet<>();
        int start = doc.indexOf("## Modules and packages");
        for (String line : doc.substring(start).lines().dropWhile(l -> !l.startsWith("|")).takeWhile(l -> l.startsWith("|"))
                .skip(2).toList()) {
            Matcher name = BACKTICKED.matcher(line.split("\\|")[2]);
            while (name.find()) {
                if (name.group(1).startsWith("io.jobguard")) {
                    rows.add(name.group(1));
                }
            }
        }
        assertThat(packages.stream().filter(p -> !rows.contains(p)).toList())
                .as("library packages without a row in docs/architecture.md").isEmpty();
        assertThat(rows.stream().filter(p -> !packages.contains(p)).toList())
                .as("packages named in docs/architecture.md's table that no library module has").isEmpty();
    }

    /**
     * The rows of the table under "## Modules and packages", by module: a row with an empty first cell continues the
     * module above it, and only the module's first row is kept.
     */
    private static Map<String, String> moduleRows(String doc) {
        int start = doc.indexOf("## Modules and packages");
        assertThat(start).as("the section \"Modules and packages\"").isNotNegative();
        Map<String, String> rows = new HashMap<>();
        for (String line : doc.substring(start).lines().dropWhile(l -> !l.startsWith("|")).takeWhile(l -> l.startsWith("|"))
                .skip(2).toList()) {
            String module = line.split("\\|")[1].trim();
            if (!module.isEmpty()) {
                rows.putIfAbsent(module, line);
            }
        }
        return rows;
    }

    /** The {@code <module>} entries of a pom outside comments, in order; none for a pom that aggregates nothing. */
    private static List<String> modules(Path pom) throws IOException {
        String xml = Files.readString(pom, StandardCharsets.UTF_8).replaceAll("(?s)<!--.*?-->", "");
        List<String> modules = new ArrayList<>();
        Matcher module = MODULE.matcher(xml);
        while (module.find()) {
            modules.add(module.group(1).trim());
        }
        return modules;
    }

    /**
     * Whether the source declares the method: a line that starts with modifiers or a type and then the name and its
     * parameters, or a component of a record (its accessor).
     */
    private static boolean declaresMethod(String source, String member) {
        Matcher declaration = Pattern.compile("(?m)^\\s*(?:[\\w@<>\\[\\],.?]+\\s+)+" + member + "\\s*\\(")
                .matcher(source);
        while (declaration.find()) {
            String first = declaration.group().trim().split("\\s+")[0];
            if (!STATEMENTS.contains(first)) {
                return true;
            }
        }
        Matcher record = RECORD_HEADER.matcher(source);
        while (record.find()) {
            if (Pattern.compile("\\b" + member + "\\s*(?:,|$)").matcher(record.group(1).trim()).find()) {
                return true;
            }
        }
        return false;
    }

    /** Every type declared in a src/main or src/test Java file of the repository, with the sources declaring it. */
    private static Map<String, List<String>> declaredTypes(Path root) throws IOException {
        Map<String, List<String>> byType = new HashMap<>();
        for (Path file : RepositorySources.javaFiles(root, "src/main/java", "src/test/java")) {
            String source = read(file);
            String fileName = file.getFileName().toString();
            byType.computeIfAbsent(fileName.substring(0, fileName.length() - ".java".length()),
                    k -> new ArrayList<>()).add(source);
            Matcher declaration = DECLARATION.matcher(source);
            while (declaration.find()) {
                byType.computeIfAbsent(declaration.group(1), k -> new ArrayList<>()).add(source);
            }
        }
        return byType;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isLibraryType(String simpleName) {
        if (SPRING_BOOT_TYPES.contains(simpleName)) {
            return true;
        }
        for (String pkg : LIBRARY_PACKAGES) {
            try {
                Class.forName(pkg + "." + simpleName, false, ArchitectureDocTest.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                // not in this package: try the next
            }
        }
        return false;
    }
}
