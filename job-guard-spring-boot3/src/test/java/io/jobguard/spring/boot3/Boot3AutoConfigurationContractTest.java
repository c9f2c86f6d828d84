package io.jobguard.spring.boot3;

import io.jobguard.testing.AutoConfigurationContract;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every Boot 3.5 adapter bean can be replaced by the application's own, and every adapter is registered. */
class Boot3AutoConfigurationContractTest {

    private static final List<Class<?>> AUTO_CONFIGURATIONS = List.of(Boot3HealthAutoConfiguration.class,
            Boot3LettuceAutoConfiguration.class);

    @Test
    void everyBeanMethodIsConditionalOnMissingBean() {
        assertThat(AutoConfigurationContract.assertEveryBeanMethodIsConditionalOnMissingBean(AUTO_CONFIGURATIONS))
                .hasSize(2);
    }

    @Test
    void everyAutoConfigurationIsRegisteredInTheImportsFile() {
        AutoConfigurationContract.assertExactlyTheseAreRegistered(AUTO_CONFIGURATIONS);
    }
}
