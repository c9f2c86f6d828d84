package io.jobguard.quartz.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.Map;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The boundaries of {@code job-guard-quartz}'s main code, checked on its compiled classes: no
 * package cycles, no static mutable state (loggers and constants only), and no use of core's
 * internal packages beyond the one listed class (still to be moved to core's public API).
 */
class QuartzArchitectureTest {

    /** Uses {@code io.jobguard.internal.Names} of core to describe jobs; the only such class. */
    static final String USES_CORE_INTERNALS = "io.jobguard.quartz.boot.QuartzGuardedJobsContributor";

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jobguard.quartz");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.jobguard.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void staticFieldsAreLoggersAndConstantsOnly() {
        fields().that().areStatic().should(new ArchCondition<JavaField>("be constants (final, of no mutable holder type)") {
            @Override
            public void check(JavaField field, ConditionEvents events) {
                JavaClass type = field.getRawType();
                boolean synthetic = field.getModifiers().contains(JavaModifier.SYNTHETIC)
                        || field.getOwner().isEnum() && type.equals(field.getOwner());
                boolean mutable = !field.getModifiers().contains(JavaModifier.FINAL) || type.isArray()
                        || type.isAssignableTo(ThreadLocal.class)
                        || type.getPackageName().equals("java.util.concurrent.atomic")
                        || (type.isAssignableTo(Collection.class) || type.isAssignableTo(Map.class)) && !type.isInterface();
                if (mutable && !synthetic) {
                    events.add(SimpleConditionEvent.violated(field, field.getFullName() + " is static mutable state"));
                }
            }
        }).allowEmptyShould(true).check(MAIN);
    }

    @Test
    void coreInternalsAreUsedOnlyByTheListedClass() {
        noClasses().that().doNotHaveFullyQualifiedName(USES_CORE_INTERNALS)
                .should().dependOnClassesThat().resideInAPackage("io.jobguard.internal..")
                .check(MAIN);
        assertThat(MAIN.get(USES_CORE_INTERNALS).getDirectDependenciesFromSelf())
                .as("the listed class still uses core internals (else remove it from the list)")
                .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("io.jobguard.internal"));
    }
}
