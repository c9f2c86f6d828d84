package io.jobguard.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps {@code docs/api.md} true: each module's section lists every public top-level type of its main
 * classes, grouped as API, SPI or internal (public for technical reasons). {@link #check} fails when a public
 * type was added or removed without updating the file, naming the types and the file, and prints the whole
 * section to paste (types already listed keep their group; new ones get one by their package).
 */
public final class PublicApiCheck {

    /** The groups of a section, in the order they are printed. */
    public static final List<String> GROUPS = List.of("API", "SPI", "Internal (public for technical reasons)");

    private PublicApiCheck() {
    }

    /**
     * Compares a module's public types with its section of the API file.
     *
     * @param module      the section's title, e.g. {@code job-guard-core}
     * @param apiFile     the file, e.g. {@code ../docs/api.md} seen from the module directory
     * @param classes     the module's main classes
     * @param spiPackages packages whose public types are SPI (for new types; listed ones keep their group)
     * @throws AssertionError naming the differences, with the section to paste
     */
    public static void check(String module, Path apiFile, Iterable<JavaClass> classes, Set<String> spiPackages) {
        Set<String> actual = new TreeSet<>();
        for (JavaClass c : classes) {
            if (c.getModifiers().contains(JavaModifier.PUBLIC) && !c.isNestedClass() && !c.isAnonymousClass()
                    && !c.getSimpleName().equals("package-info")) {
                actual.add(c.getName());
            }
        }
        Map<String, String> listed = listed(module, apiFile);
        Set<String> added = new TreeSet<>(actual);
        added.removeAll(listed.keySet());
        Set<String> removed = new TreeSet<>(listed.keySet());
        removed.removeAll(actual);
        if (added.isEmpty() && removed.isEmpty()) {
            return;
        }
        Map<String, Set<String>> grouped = new LinkedHashMap<>();
        GROUPS.forEach(g -> grouped.put(g, new TreeSet<>()));
        for (String type : actual) {
            String group = listed.getOrDefault(type, defaultGroup(type, spiPackages));
            grouped.get(group).add(type);
        }
        StringBuilder section = new StringBuilder("## " + module + "\n");
        grouped.forEach((group, types) -> {
            section.append("\n### ").append(group).append("\n\n");
            types.forEach(t -> section.append("- `").append(t).append("`\n"));
        });
        throw new AssertionError("The public types of " + module + " differ from " + apiFile.normalize()
                + ": added " + added + ", removed " + removed + ". Replace its section '## " + module
                + "' with:\n\n" + section);
    }

    private static String defaultGroup(String type, Set<String> spiPackages) {
        String pkg = type.substring(0, type.lastIndexOf('.'));
        if (pkg.contains(".internal")) {
            return GROUPS.get(2);
        }
        return spiPackages.contains(pkg) ? GROUPS.get(1) : GROUPS.get(0);
    }

    /** The types a module's section lists, with their group. */
    static Map<String, String> listed(String module, Path apiFile) {
        List<String> lines;
        try {
            lines = Files.readAllLines(apiFile);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + apiFile.toAbsolutePath() + ": " + e, e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        boolean inModule = false;
        String group = GROUPS.get(0);
        for (String line : new ArrayList<>(lines)) {
            if (line.startsWith("## ")) {
                inModule = line.substring(3).trim().equals(module);
            } else if (inModule && line.startsWith("### ")) {
                String title = line.substring(4).trim();
                group = GROUPS.contains(title) ? title : GROUPS.get(0);
            } else if (inModule && line.startsWith("- `")) {
                out.put(line.substring(3, line.indexOf('`', 3)), group);
            }
        }
        return out;
    }
}
