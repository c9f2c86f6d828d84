package io.jobguard.spring.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The boundaries of {@code job-guard-spring}'s main code, checked on its compiled classes: no
 * package cycles, no static mutable state (loggers and constants only), and no use of core's
 * internal packages beyond the listed classes (each still to be moved to core's public API).
 */
class SpringArchitectureTest {

    /**
     * The spring classes that still use {@code io.jobguard.internal} of core, each for small
     * helpers (names, rate-limited logs, daemon threads, time bounds) that core does not export yet.
     */
    static final Set<String> USES_CORE_INTERNALS = Set.of(
            "io.jobguard.spring.boot.JobGuardPropertiesValidator",
            "io.jobguard.spring.boot.ScheduleAgreementCheck",
            "io.jobguard.spring.boot.ClockSkewMonitor",
            "io.jobguard.spring.boot.JobGuardAutoConfiguration",
            "io.jobguard.spring.batch.BatchLockedMethod");

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jobguard.spring");

    /**
     * Each package is a slice. One known cycle is excluded until its owners move the type:
     * {@code actuator.GuardedJobsContributor} is an SPI that {@code io.jobguard.spring} and
     * {@code boot} call while {@code actuator} depends on {@code boot}'s auto-configurations.
     */
    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.jobguard.(**)").should().beFreeOfCycles()
                .ignoreDependency(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage("io.jobguard.spring.actuator")),
                        nameStartingWith("io.jobguard.spring.actuator.GuardedJobsContributor"))
                .check(MAIN);
    }

    @Test
    void staticFieldsAreLoggersAndConstantsOnly() {
        noStaticMutableFields().check(MAIN);
    }

    @Test
    void coreInternalsAreUsedOnlyByTheListedClasses() {
        noClasses().that(outside(USES_CORE_INTERNALS))
                .should().dependOnClassesThat().resideInAPackage("io.jobguard.internal..")
                .check(MAIN);
    }

    @Test
    void theListOfCoreInternalUsersHasNoStaleEntries() {
        for (String name : USES_CORE_INTERNALS) {
            JavaClass type = MAIN.get(name);
            boolean uses = type.getDirectDependenciesFromSelf().stream()
                    .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("io.jobguard.internal"));
            if (!uses) {
                throw new AssertionError(name + " no longer uses io.jobguard.internal: remove it from the list");
            }
        }
    }

    /** Static fields are final and hold no mutable container: no ThreadLocal, atomic, array or concrete collection. */
    static ArchRule noStaticMutableFields() {
        return fields().that().areStatic().should(new ArchCondition<JavaField>("be constants (final, of no mutable holder type)") {
            @Override
            public void check(JavaField field, ConditionEvents events) {
                String problem = mutability(field);
                if (problem != null) {
                    events.add(SimpleConditionEvent.violated(field, field.getFullName() + " " + problem));
                }
            }
        }).allowEmptyShould(true);
    }

    private static String mutability(JavaField field) {
        if (field.getModifiers().contains(JavaModifier.SYNTHETIC)
                || field.getOwner().isEnum() && field.getRawType().equals(field.getOwner())) {
            return null;
        }
        if (!field.getModifiers().contains(JavaModifier.FINAL)) {
            return "is static and not final";
        }
        JavaClass type = field.getRawType();
        if (type.isArray()) {
            return "is a static array (its elements can change)";
        }
        if (type.isAssignableTo(ThreadLocal.class) || type.getPackageName().equals("java.util.concurrent.atomic")) {
            return "is static mutable state (" + type.getSimpleName() + ")";
        }
        if ((type.isAssignableTo(Collection.class) || type.isAssignableTo(Map.class)) && !type.isInterface()) {
            return "is a static mutable collection (" + type.getSimpleName() + ")";
        }
        return null;
    }

    private static DescribedPredicate<JavaClass> outside(Set<String> allowed) {
        return DescribedPredicate.describe("are not in " + allowed, c -> !allowed.contains(c.getName())
                && !allowed.contains(c.getName().replaceFirst("\\$.*", "")));
    }
}
