package io.jobguard.spring.boot;

import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** The auto-configuration builds one {@link NodeConfig} bean from {@code jobguard.node-id} and the engine uses it. */
class NodeConfigBeanTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class))
            .withPropertyValues("jobguard.store=in-memory", "jobguard.namespace=nodes");

    @Test
    void nodeIdPropertyBuildsTheOneNodeConfigTheEngineConfigurationUses() {
        runner.withPropertyValues("jobguard.node-id=node-7").run(context -> {
            assertThat(context).hasNotFailed();
            NodeConfig node = context.getBean(NodeConfig.class);
            assertThat(node.nodeId()).isEqualTo("node-7");
            assertThat(context.getBean(JobGuardConfig.class).node()).isSameAs(node);
        });
    }

    @Test
    void withoutTheNodeIdPropertyTheNodeIsHostnameAndPid() {
        runner.run(context -> assertThat(context.getBean(NodeConfig.class)).isEqualTo(NodeConfig.defaults()));
    }

    @Test
    void anApplicationsOwnNodeConfigReplacesTheAutoConfiguredOne() {
        runner.withUserConfiguration(OwnNode.class).run(context -> {
            assertThat(context).hasSingleBean(NodeConfig.class);
            assertThat(context.getBean(JobGuardConfig.class).nodeId()).isEqualTo("own");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnNode {
        @Bean
        NodeConfig node() {
            return NodeConfig.builder().nodeId("own").build();
        }
    }
}
