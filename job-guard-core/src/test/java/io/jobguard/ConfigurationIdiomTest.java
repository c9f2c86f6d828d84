package io.jobguard;

import io.jobguard.batch.BatchLockConfig;
import io.jobguard.redis.DurableAcquire;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every public configuration follows one idiom: a final class with no public constructor, a static
 * {@code builder(...)}, {@code toBuilder()} that round-trips to an equal value, setters that reject
 * a bad value at once naming the setting, and value semantics.
 */
class ConfigurationIdiomTest {

    private static final List<Class<?>> CONFIGURATIONS = List.of(NodeConfig.class, JobGuardConfig.class,
            JobOptions.class, RecoveryOptions.class, BatchLockConfig.class, DurableAcquire.class);

    @Test
    void everyConfigurationIsAFinalClassBuiltOnlyByItsBuilder() throws Exception {
        for (Class<?> type : CONFIGURATIONS) {
            assertThat(Modifier.isFinal(type.getModifiers())).as("%s is final", type).isTrue();
            assertThat(type.isRecord()).as("%s is not a record", type).isFalse();
            assertThat(type.getConstructors()).as("public constructors of %s", type).isEmpty();
            assertThat(type.getMethod("toBuilder").getReturnType().getSimpleName()).isEqualTo("Builder");
            assertThat(List.of(type.getMethods()).stream().filter(m -> m.getName().equals("builder"))
                    .filter(m -> Modifier.isStatic(m.getModifiers())).count()).as("builder() of %s", type).isOne();
            for (Method m : type.getMethods()) {
                assertThat(m.getName()).as("old idiom on %s", type)
                        .isNotIn("custom", "from", "ofDefaults", "of", "off", "checkName", "checkWindow", "checkMax");
                assertThat(m.getName()).as("old idiom on %s", type).doesNotStartWith("with");
            }
        }
    }

    @Test
    void defaultsAreUnchanged() {
        JobGuardConfig config = JobGuardConfig.defaults();
        assertThat(config.namespace()).isEqualTo("default");
        assertThat(config.nodeId()).isEqualTo(NodeConfig.defaultNodeId()).contains(":");
        assertThat(config.defaultLease()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.skewTolerance()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.storeFailurePolicy()).isEqualTo(StoreFailurePolicy.SKIP);
        assertThat(config.interruptOnLeaseLost()).isFalse();
        assertThat(config.waitPollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.historySize()).isEqualTo(2_000);
        assertThat(config.historyRetention()).isEqualTo(Duration.ofDays(14));

        BatchLockConfig batch = BatchLockConfig.defaults();
        assertThat(batch.node()).isEqualTo(NodeConfig.defaults());
        assertThat(List.of(batch.chunkSize(), batch.maxKeys(), batch.maxKeyLength(), batch.maxReportedConflicts()))
                .containsExactly(1_000, 100_000, 512, 16);
        assertThat(batch.spread()).isNull();
        assertThat(batch.keepAlive()).isFalse();
        assertThat(batch.waitPollInterval()).isEqualTo(Duration.ofMillis(500));

        RecoveryOptions recovery = RecoveryOptions.defaults();
        assertThat(recovery.misfirePolicy()).isEqualTo(MisfirePolicy.SKIP);
        assertThat(recovery.catchUpWindow()).isEqualTo(RecoveryOptions.DEFAULT_CATCH_UP_WINDOW);
        assertThat(recovery.catchUpMax()).isEqualTo(RecoveryOptions.DEFAULT_CATCH_UP_MAX);
        assertThat(recovery.delivery()).isEqualTo(Delivery.AT_MOST_ONCE);
        assertThat(recovery.maxAttempts()).isEqualTo(RecoveryOptions.DEFAULT_MAX_ATTEMPTS);
        assertThat(recovery.schedule()).isNull();

        DurableAcquire durable = DurableAcquire.defaults();
        assertThat(durable.enabled()).isFalse();
        assertThat(durable.timeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void oneNodeConfigurationIsSharedByEngineAndBatchLocks() {
        NodeConfig node = NodeConfig.builder().nodeId("n1").build();
        JobGuardConfig config = JobGuardConfig.builder().node(node).build();
        BatchLockConfig batch = BatchLockConfig.builder().node(config.node()).build();
        assertThat(config.nodeId()).isEqualTo("n1");
        assertThat(batch.nodeId()).isEqualTo("n1");
        assertThat(batch.node()).isSameAs(node);
        assertThatThrownBy(() -> JobGuardConfig.builder().node(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("node");
    }

    @Test
    void toBuilderRoundTripsAndValuesCompareByContent() {
        NodeConfig node = NodeConfig.builder().nodeId("n1").build();
        assertValue(node, node.toBuilder().build(), NodeConfig.builder().nodeId("n2").build());
        JobGuardConfig config = JobGuardConfig.builder().namespace("shop").node(node).historySize(3).build();
        assertValue(config, config.toBuilder().build(), config.toBuilder().historySize(4).build());
        JobOptions options = JobOptions.builder("job", Duration.ofSeconds(30)).recovery(RecoveryOptions.defaults())
                .build();
        assertValue(options, options.toBuilder().build(), options.toBuilder().keepAlive(false).build());
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.RUN_ALL).catchUpMax(50)
                .build();
        assertValue(recovery, recovery.toBuilder().build(), recovery.toBuilder().catchUpMax(51).build());
        BatchLockConfig batch = BatchLockConfig.builder().node(node).spread(true).build();
        assertValue(batch, batch.toBuilder().build(), batch.toBuilder().spread(false).build());
        DurableAcquire durable = DurableAcquire.builder().replicas(1).build();
        assertValue(durable, durable.toBuilder().build(), durable.toBuilder().replicas(2).build());
        assertThat(config.toString()).startsWith("JobGuardConfig[namespace=shop, nodeId=n1,");
    }

    @Test
    void settersRejectABadValueAtOnceNamingTheSettingAndTheValue() {
        assertThatThrownBy(() -> NodeConfig.builder().nodeId(" n1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("nodeId ' n1' starts or ends");
        assertThatThrownBy(() -> JobGuardConfig.builder().defaultLease(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("defaultLease must be positive, got PT0S");
        assertThatThrownBy(() -> JobOptions.builder("j", Duration.ofSeconds(1)).waitFor(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("waitFor of job 'j' must not be negative, got PT-1S");
        assertThatThrownBy(() -> RecoveryOptions.builder().catchUpWindow(Duration.ofDays(31)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("catch-up-window must be at most 30 days, got PT744H");
        assertThatThrownBy(() -> RecoveryOptions.builder().catchUpMax(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("catch-up-max must be 1 to 1000, got 0");
        assertThatThrownBy(() -> RecoveryOptions.builder().maxAttempts(1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("max-attempts must be 2 to 100, got 1");
        assertThatThrownBy(() -> BatchLockConfig.builder().maxKeys(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("BatchLockConfig.maxKeys must be positive, got 0");
        assertThatThrownBy(() -> DurableAcquire.builder().replicas(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("durable acquire replicas must not be negative, got -1");
        assertThatThrownBy(() -> DurableAcquire.builder().timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("durable acquire timeout must be positive, got PT0S");
    }

    private static void assertValue(Object value, Object copy, Object other) {
        assertThat(copy).isEqualTo(value).hasSameHashCodeAs(value).hasToString(value.toString()).isNotSameAs(value);
        assertThat(other).isNotEqualTo(value);
    }
}
