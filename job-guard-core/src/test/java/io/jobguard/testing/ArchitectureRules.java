package io.jobguard.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The architecture rules every job-guard module checks on its main classes, shared through the
 * core test-jar so that core, spring and quartz state them once. Each factory returns an ArchUnit
 * rule; a module's test imports its main classes with {@link #mainClasses(String)} and checks the
 * rules it needs.
 */
public final class ArchitectureRules {

    /** Types whose static instances hold state that changes at run time. */
    private static final Set<Class<?>> MUTABLE_HOLDERS = Set.of(ThreadLocal.class, Collection.class,
            Map.class, AtomicBoolean.class, AtomicInteger.class, AtomicLong.class, AtomicReference.class);

    private ArchitectureRules() {
    }

    /**
     * Imports the compiled main classes (no test classes, no jars) under a package.
     *
     * @param rootPackage for example {@code io.jobguard}
     * @return the classes
     */
    public static JavaClasses mainClasses(String rootPackage) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(rootPackage);
    }

    /**
     * No dependency on Spring at all, except on the listed Spring packages and only from the listed
     * job-guard packages. Core passes the spring-data-redis client packages it runs the Redis store on.
     *
     * @param allowedSpring Spring package patterns that may be used, e.g. {@code org.springframework.data.redis..}
     * @param allowedUsers job-guard package patterns that may use them, e.g. {@code io.jobguard.redis..}
     * @return the rule
     */
    public static ArchRule springOnlyWhereAllowed(String[] allowedSpring, String[] allowedUsers) {
        DescribedPredicate<JavaClass> forbiddenSpring = new DescribedPredicate<>(
                "Spring classes outside " + Arrays.toString(allowedSpring)) {
            @Override
            public boolean test(JavaClass target) {
                return target.getPackageName().startsWith("org.springframework")
                        && Arrays.stream(allowedSpring).noneMatch(p -> matches(target.getPackageName(), p));
            }
        };
        ArchRule noOtherSpring = noClasses().should().dependOnClassesThat(forbiddenSpring)
                .because("a module depends only on the Spring parts its packages are documented to use");
        ArchRule onlyAllowedUsers = noClasses().that().resideOutsideOfPackages(allowedUsers)
                .should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .because("Spring is used only where a package's role needs it");
        return CompositeArchRule.of(noOtherSpring).and(onlyAllowedUsers);
    }

    /**
     * No cycles between the packages under {@code rootPackage}: its top-level classes count as one
     * slice, every direct subpackage (with everything below it) as another, except that each package
     * directly under {@code internal} is a slice of its own.
     *
     * @param rootPackage for example {@code io.jobguard}
     * @return the rule
     */
    public static ArchRule noPackageCycles(String rootPackage) {
        return noPackageCycles(rootPackage, List.of());
    }

    /**
     * {@link #noPackageCycles(String)}, not counting the named edges from an API type to the package
     * that implements it: an interface's factory (for example {@code JobGuard.create}, which returns the
     * engine hidden in {@code internal.engine}) must name its implementation, as Resilience4j's
     * {@code CircuitBreaker.of} names its state machine. Every other edge still counts.
     *
     * @param rootPackage      for example {@code io.jobguard}
     * @param apiToEngineEdges each "origin class -> target package" edge not counted, for example
     *                         {@code "io.jobguard.JobGuard -> io.jobguard.internal.engine"}
     * @return the rule
     */
    public static ArchRule noPackageCycles(String rootPackage, List<String> apiToEngineEdges) {
        SliceAssignment bySubpackage = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(rootPackage)) {
                    return SliceIdentifier.of("(top level)");
                }
                if (!name.startsWith(rootPackage + ".")) {
                    return SliceIdentifier.ignore();
                }
                String rest = name.substring(rootPackage.length() + 1);
                // each internal package is a part of its own (the engine, the Redis codec, the helpers)
                String[] parts = rest.split("\\.");
                return SliceIdentifier.of(parts[0].equals("internal") && parts.length > 1
                        ? parts[0] + "." + parts[1] : parts[0]);
            }

            @Override
            public String getDescription() {
                return "packages of " + rootPackage;
            }
        };
        var rule = SlicesRuleDefinition.slices().assignedFrom(bySubpackage).should().beFreeOfCycles();
        for (String edge : apiToEngineEdges) {
            String[] ends = edge.split("\\s*->\\s*");
            rule = rule.ignoreDependency(DescribedPredicate.describe(ends[0], c -> c.getName().equals(ends[0])
                            || c.getName().startsWith(ends[0] + "$")),
                    DescribedPredicate.describe(ends[1], c -> c.getPackageName().equals(ends[1])));
        }
        return rule;
    }

    /**
     * No static mutable state: every static field is final and not a mutable holder (array, collection, map,
     * atomic, ThreadLocal), except loggers and the fields named in {@code allowed}
     * ({@code "fully.qualified.Class.field"}), each of which the caller documents.
     *
     * @param allowed the documented exceptions
     * @return the rule
     */
    public static ArchRule noStaticMutableState(String... allowed) {
        Set<String> exceptions = Set.of(allowed);
        DescribedPredicate<JavaField> mutableStatic = new DescribedPredicate<>("static mutable state") {
            @Override
            public boolean test(JavaField field) {
                if (!field.getModifiers().contains(JavaModifier.STATIC)
                        || field.getModifiers().contains(JavaModifier.SYNTHETIC)
                        || exceptions.contains(field.getOwner().getName() + "." + field.getName())) {
                    return false;
                }
                if (!field.getModifiers().contains(JavaModifier.FINAL)) {
                    return true;
                }
                JavaClass type = field.getRawType();
                // an enum's constants are instances of their own class; an array's elements can change
                return !(field.getOwner().isEnum() && type.equals(field.getOwner()))
                        && (type.isArray() || MUTABLE_HOLDERS.stream().anyMatch(type::isAssignableTo));
            }
        };
        return fields().should(new ArchCondition<>("not be static mutable state") {
            @Override
            public void check(JavaField field, ConditionEvents events) {
                if (mutableStatic.test(field)) {
                    events.add(SimpleConditionEvent.violated(field,
                            field.getFullName() + " is static mutable state"));
                }
            }
        }).because("state belongs to instances the application creates and closes, never to the class");
    }

    /**
     * Internal packages ({@code io.jobguard..internal..}) are used only from the listed packages.
     *
     * @param allowedUsers package patterns that may use them, e.g. {@code io.jobguard..} minus others
     * @return the rule
     */
    public static ArchRule internalUsedOnlyFrom(String... allowedUsers) {
        return noClasses().that().resideOutsideOfPackages(allowedUsers)
                .should().dependOnClassesThat().resideInAPackage("io.jobguard..internal..")
                .because("internal packages may change without notice and are not for applications")
                .allowEmptyShould(true);
    }

    /**
     * Core's internal packages ({@code io.jobguard.internal..}) are used only by the listed classes of a module
     * (each still to be moved to core's public API), and each listed class does use them, so the list has no stale
     * entry. Nested classes count as their top-level class.
     *
     * @param classes the module's main classes
     * @param users   fully qualified names of the classes that may use core's internals
     */
    public static void coreInternalsUsedOnlyBy(JavaClasses classes, Set<String> users) {
        DescribedPredicate<JavaClass> notListed = DescribedPredicate.describe("are not in " + users,
                c -> !users.contains(c.getName().replaceFirst("\\$.*", "")));
        noClasses().that(notListed).should().dependOnClassesThat().resideInAPackage("io.jobguard.internal..")
                .because("internal packages may change without notice").allowEmptyShould(true).check(classes);
        for (String name : users) {
            boolean uses = classes.get(name).getDirectDependenciesFromSelf().stream()
                    .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("io.jobguard.internal"));
            if (!uses) {
                throw new AssertionError(name + " no longer uses io.jobguard.internal: remove it from the list");
            }
        }
    }

    private static boolean matches(String packageName, String pattern) {
        String base = pattern.endsWith("..") ? pattern.substring(0, pattern.length() - 2) : pattern;
        return pattern.endsWith("..")
                ? packageName.equals(base) || packageName.startsWith(base + ".")
                : packageName.equals(base);
    }
}
