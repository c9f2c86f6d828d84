package io.jobguard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of a module's Spring Boot auto-configurations, checked the same way for the Boot 4 module
 * (job-guard-spring) and the Boot 3.5 one (job-guard-spring-boot3). Annotations are compared by type name, so this
 * class needs no Spring on core's class path and reads whichever Boot version the calling module has.
 */
public final class AutoConfigurationContract {

    /** The file Spring Boot reads the auto-configurations of a class-path root from. */
    public static final String IMPORTS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

    private static final String BEAN = "org.springframework.context.annotation.Bean";
    private static final String CONDITIONAL_ON_MISSING_BEAN =
            "org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean";
    private static final String AUTO_CONFIGURATION = "org.springframework.boot.autoconfigure.AutoConfiguration";

    private AutoConfigurationContract() {
    }

    /**
     * Asserts that every {@code @Bean} method of the auto-configurations and of the classes nested in them is
     * {@code @ConditionalOnMissingBean}, so that an application's own bean always replaces job-guard's.
     *
     * @param autoConfigurations the auto-configuration classes
     * @return the {@code @Bean} methods checked, for the caller to assert that the search found them all
     */
    public static List<Method> assertEveryBeanMethodIsConditionalOnMissingBean(List<Class<?>> autoConfigurations) {
        List<Method> beans = autoConfigurations.stream()
                .flatMap(c -> Stream.concat(Stream.of(c), Arrays.stream(c.getDeclaredClasses())))
                .flatMap(c -> Arrays.stream(c.getDeclaredMethods()))
                .filter(m -> annotated(m, BEAN))
                .toList();
        assertThat(beans).allSatisfy(m -> assertThat(annotated(m, CONDITIONAL_ON_MISSING_BEAN))
                .as("%s.%s is @ConditionalOnMissingBean", m.getDeclaringClass().getSimpleName(), m.getName())
                .isTrue());
        return beans;
    }

    /**
     * Asserts that the {@value #IMPORTS} file of the class-path root holding the auto-configurations lists exactly
     * these classes (in any order), and that each is annotated {@code @AutoConfiguration}.
     *
     * @param autoConfigurations the auto-configuration classes, all from one class-path root
     */
    public static void assertExactlyTheseAreRegistered(List<Class<?>> autoConfigurations) {
        assertThat(autoConfigurations).isNotEmpty();
        URL root = root(autoConfigurations.get(0));
        assertThat(autoConfigurations).as("the auto-configurations come from %s", root)
                .allSatisfy(c -> assertThat(root(c)).isEqualTo(root));
        assertThat(imports(autoConfigurations.get(0).getClassLoader(), root))
                .containsExactlyInAnyOrderElementsOf(autoConfigurations.stream().map(Class::getName).toList());
        assertThat(autoConfigurations).allSatisfy(c -> assertThat(annotated(c, AUTO_CONFIGURATION))
                .as("%s is @AutoConfiguration", c.getSimpleName())
                .isTrue());
    }

    /** The non-blank, trimmed lines of the imports file that lies in {@code root}. */
    private static List<String> imports(ClassLoader loader, URL root) {
        try {
            for (URL url : Collections.list(loader.getResources(IMPORTS))) {
                if (url.toString().contains(root.toString())) {
                    try (InputStream in = url.openStream()) {
                        return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                                .filter(l -> !l.isEmpty()).toList();
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("no " + IMPORTS + " in " + root);
    }

    private static URL root(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    private static boolean annotated(AnnotatedElement element, String annotationType) {
        return Arrays.stream(element.getAnnotations()).map(Annotation::annotationType)
                .anyMatch(t -> t.getName().equals(annotationType));
    }
}
