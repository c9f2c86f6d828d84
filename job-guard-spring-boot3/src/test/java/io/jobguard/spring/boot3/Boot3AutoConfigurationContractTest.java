package io.jobguard.spring.boot3;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every Boot 3.5 adapter bean can be replaced by the application's own, and every adapter is registered. */
class Boot3AutoConfigurationContractTest {

    private static final List<Class<?>> AUTO_CONFIGURATIONS = List.of(Boot3HealthAutoConfiguration.class,
            Boot3LettuceAutoConfiguration.class);

    @Test
    void everyBeanMethodIsConditionalOnMissingBean() {
        List<Method> beans = AUTO_CONFIGURATIONS.stream().flatMap(c -> Arrays.stream(c.getDeclaredMethods()))
                .filter(m -> m.isAnnotationPresent(Bean.class)).toList();
        assertThat(beans).hasSize(2);
        assertThat(beans).allSatisfy(m -> assertThat(m.isAnnotationPresent(ConditionalOnMissingBean.class))
                .as("%s.%s is @ConditionalOnMissingBean", m.getDeclaringClass().getSimpleName(), m.getName())
                .isTrue());
    }

    @Test
    void everyAutoConfigurationIsRegisteredInTheImportsFile() throws IOException {
        String imports;
        try (InputStream in = getClass().getResourceAsStream(
                "/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            assertThat(in).isNotNull();
            imports = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(imports.lines().map(String::trim).filter(l -> !l.isEmpty()).toList())
                .containsExactlyInAnyOrderElementsOf(AUTO_CONFIGURATIONS.stream().map(Class::getName).toList());
        assertThat(AUTO_CONFIGURATIONS).allSatisfy(c -> assertThat(c.isAnnotationPresent(AutoConfiguration.class))
                .isTrue());
    }
}
