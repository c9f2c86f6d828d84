package io.jobguard.compat;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;

/**
 * Leaves Boot 3.5's tracing auto-configurations out of every test application of this module, child JVMs included,
 * whatever the test excludes itself. Boot 3.5 keeps them in spring-boot-actuator-autoconfigure, so with both tracing
 * bridges on this test class path (TracingBridgeIT, OtelTracingBridgeIT) they would find two propagators. The tests
 * wire their own tracers, as on Boot 4, where tracing auto-configuration is a module of its own that the tests do not
 * bring; this makes the Boot 3.5 column run the same test applications as the 4.x columns.
 */
public class WithoutBootTracing implements AutoConfigurationImportFilter {

    private static final String TRACING = "org.springframework.boot.actuate.autoconfigure.tracing.";

    @Override
    public boolean[] match(String[] candidates, AutoConfigurationMetadata metadata) {
        boolean[] match = new boolean[candidates.length];
        for (int i = 0; i < candidates.length; i++) {
            match[i] = candidates[i] == null || !candidates[i].startsWith(TRACING);
        }
        return match;
    }
}
