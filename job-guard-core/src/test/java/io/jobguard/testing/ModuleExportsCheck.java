package io.jobguard.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps a module's {@code module-info.java} and {@code docs/api.md} the same promise: the packages the module
 * exports to everyone are exactly the packages of the types its section lists as API or SPI; no package holds
 * both such a type and an internal one; a package exported only to named modules (job-guard's own) holds no
 * API type; and no public or protected member of an exported type names a type of a job-guard package that
 * is not exported (an application could not use it).
 */
public final class ModuleExportsCheck {

    private static final Pattern EXPORTS = Pattern.compile("\\bexports\\s+([\\w.]+)\\s*(to\\s+[^;]+)?;");

    private ModuleExportsCheck() {
    }

    /**
     * Checks one module.
     *
     * @param module     the section's title in the API file, e.g. {@code job-guard-core}
     * @param moduleInfo the module's {@code module-info.java}
     * @param apiFile    the API file ({@code docs/api.md})
     * @param classes    the module's main classes
     * @throws AssertionError naming every difference
     */
    public static void check(String module, Path moduleInfo, Path apiFile, Iterable<JavaClass> classes) {
        String source = read(moduleInfo).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
        Set<String> exported = new TreeSet<>();
        Set<String> qualified = new TreeSet<>();
        Matcher m = EXPORTS.matcher(source);
        while (m.find()) {
            (m.group(2) == null ? exported : qualified).add(m.group(1));
        }
        Set<String> apiPackages = new TreeSet<>();
        Set<String> internalPackages = new TreeSet<>();
        PublicApiCheck.listed(module, apiFile).forEach((type, group) ->
                (group.equals(PublicApiCheck.GROUPS.get(2)) ? internalPackages : apiPackages).add(packageOf(type)));

        List<String> problems = new ArrayList<>();
        if (!exported.equals(apiPackages)) {
            Set<String> missing = new TreeSet<>(apiPackages);
            missing.removeAll(exported);
            Set<String> extra = new TreeSet<>(exported);
            extra.removeAll(apiPackages);
            problems.add(moduleInfo + " exports " + exported + "; " + apiFile + " lists API/SPI types in " + apiPackages
                    + (missing.isEmpty() ? "" : " (not exported: " + missing + ")")
                    + (extra.isEmpty() ? "" : " (exported without an API type: " + extra + ")"));
        }
        Set<String> mixed = new TreeSet<>(apiPackages);
        mixed.retainAll(internalPackages);
        if (!mixed.isEmpty()) {
            problems.add("packages holding both API/SPI and internal types (an export is per package): " + mixed);
        }
        Set<String> qualifiedApi = new TreeSet<>(qualified);
        qualifiedApi.retainAll(apiPackages);
        if (!qualifiedApi.isEmpty()) {
            problems.add("packages with API types exported only to named modules: " + qualifiedApi);
        }
        Set<String> own = new TreeSet<>();
        classes.forEach(c -> own.add(c.getPackageName()));
        for (JavaClass c : classes) {
            if (exported.contains(c.getPackageName()) && isVisible(c.getModifiers(), c)) {
                problems.addAll(leaks(c, exported, own));
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("module-info.java of " + module + " and " + apiFile.normalize() + " disagree:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** Public and protected members of an exported type that name a job-guard type of a package not exported. */
    private static List<String> leaks(JavaClass c, Set<String> exported, Set<String> own) {
        List<String> out = new ArrayList<>();
        for (JavaCodeUnit unit : c.getCodeUnits()) {
            if (!isVisible(unit.getModifiers(), c) || unit.getName().startsWith("lambda$") || unit.getModifiers()
                    .contains(JavaModifier.SYNTHETIC)) {
                continue;
            }
            List<JavaType> named = new ArrayList<>(unit.getParameterTypes());
            named.add(unit.getReturnType());
            for (JavaType type : named) {
                for (JavaClass involved : type.getAllInvolvedRawTypes()) {
                    if (hidden(involved, exported, own)) {
                        out.add(unit.getFullName() + " names " + involved.getName());
                    }
                }
            }
        }
        for (JavaField field : c.getFields()) {
            if (isVisible(field.getModifiers(), c) && hidden(field.getRawType(), exported, own)) {
                out.add(field.getFullName() + " is a " + field.getRawType().getName());
            }
        }
        return out;
    }

    private static boolean isVisible(Set<JavaModifier> modifiers, JavaClass owner) {
        boolean open = modifiers.contains(JavaModifier.PUBLIC)
                || modifiers.contains(JavaModifier.PROTECTED) && !owner.getModifiers().contains(JavaModifier.FINAL);
        return open && (owner.getEnclosingClass().isEmpty() || isVisible(owner.getEnclosingClass().get().getModifiers(),
                owner.getEnclosingClass().get()));
    }

    /**
     * A job-guard package an application cannot see: one of this module's that it does not export, or another
     * job-guard module's internal package (that module's own check covers the rest of its packages).
     */
    private static boolean hidden(JavaClass type, Set<String> exported, Set<String> own) {
        JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
        String pkg = base.getPackageName();
        if (!pkg.startsWith("io.jobguard")) {
            return false;
        }
        return own.contains(pkg) ? !exported.contains(pkg) : pkg.contains(".internal");
    }

    private static String packageOf(String type) {
        return type.substring(0, type.lastIndexOf('.'));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file.toAbsolutePath() + ": " + e, e);
        }
    }
}
