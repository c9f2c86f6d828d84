package io.jobguard.spring.it;

import io.jobguard.batch.BatchLockUnavailableException;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 20, rows 1 to 6 and 11, with Spring Boot nodes sharing one real Redis: each misuse either
 * fails the context at startup naming the method or property and the fix, or (batch keys) two nodes
 * calling for the same key exclude each other. Before the fix every one of these contexts started
 * and the guarded method ran on every node, or two calls for one SKU ran at once.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class MisuseRefusedIT {

    private static final String APP = MisuseApps.class.getName();

    @Test
    void aMethodTheProxyCannotInterceptFailsStartup(RedisServerProcess redis) {
        startupFails(redis, "@ClusterSingleton on " + APP + "$FinalMethod.run(): the method is final; job-guard's "
                + "proxy cannot intercept it", "test.case=final-method");
        startupFails(redis, "@ClusterSingleton on " + APP + "$StaticMethod.run(): the method is static",
                "test.case=static-method");
        startupFails(redis, "@ClusterSingleton on " + APP + "$PrivateMethod.run(): the method is private",
                "test.case=private-method");
        startupFails(redis, "the class " + APP + "$FinalClass is final", "test.case=final-class");
    }

    @Test
    void aClassLevelAnnotationOnABeanFailsStartup(RedisServerProcess redis) {
        startupFails(redis, "@ClusterSingleton on class " + APP + "$ClassLevel (bean 'classLevel') guards nothing",
                "test.case=class-level");
    }

    @Test
    void aOneTimeScheduleHasNoSharedFireTimeAndFailsStartup(RedisServerProcess redis) {
        startupFails(redis, "@ClusterSingleton on " + APP + "$InitialDelayOnly.run(): a one-time @Scheduled "
                + "(initialDelay alone, once after PT1H) has no fire time shared by the nodes", "test.case=initial-delay");
    }

    @Test
    void batchKeysFromAStreamAnIterableOrAnIteratorExcludeTheSameKeyOnAnotherNode(RedisServerProcess redis)
            throws Exception {
        try (Nodes nodes = Nodes.start(redis, MisuseApps.class, List.of(
                List.of("test.case=batch", "jobguard.node-id=a"), List.of("test.case=batch", "jobguard.node-id=b")))) {
            MisuseApps.Skus a = nodes.contexts().get(0).getBean(MisuseApps.Skus.class);
            MisuseApps.Skus b = nodes.contexts().get(1).getBean(MisuseApps.Skus.class);
            holdThenCollide(b, (holding, release) -> a.holdStream(Stream.of("sku-1"), holding, release),
                    List.of("sku-1"));
            Iterable<String> notACollection = () -> List.of("sku-2").iterator();
            holdThenCollide(b, (holding, release) -> a.holdIterable(notACollection, holding, release),
                    List.of("sku-2"));
            holdThenCollide(b, (holding, release) -> a.holdIterator(List.of("sku-3").iterator(), holding, release),
                    List.of("sku-3"));
            assertThatThrownBy(() -> b.byMap(Map.of("sku-4", 1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("keys expression '#stock' gave a Map; lock its keys with '.keySet()'");
        }
    }

    /** Node a holds some keys; node b's call for the same key (as a List and as an array) is refused. */
    private static void holdThenCollide(MisuseApps.Skus b, Holder a, List<String> sameKey) throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> held = CompletableFuture.runAsync(() -> {
            try {
                a.hold(holding, release);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(holding.await(60, TimeUnit.SECONDS)).as("node a runs holding the keys").isTrue();
            assertThatThrownBy(() -> b.once(sameKey)).isInstanceOf(BatchLockUnavailableException.class);
            assertThatThrownBy(() -> b.onceArray(sameKey.toArray(String[]::new)))
                    .isInstanceOf(BatchLockUnavailableException.class);
        } finally {
            release.countDown();
            held.get(60, TimeUnit.SECONDS);
        }
        b.once(sameKey);
    }

    @Test
    void separatorsInTheNamespaceFailStartupNamingTheProperty(RedisServerProcess redis) {
        // node a runs in namespace 'a'; node b's 'a:b' would have shared keys with a's jobs named 'b:...'
        try (ConfigurableApplicationContext a = start(redis, "test.case=valid", "jobguard.namespace=a",
                "jobguard.node-id=a")) {
            assertThat(a.isRunning()).isTrue();
            startupFails(redis, "jobguard.namespace 'a:b' contains ':', a separator in job-guard's keys",
                    "test.case=valid", "jobguard.namespace=a:b", "jobguard.node-id=b");
        }
        startupFails(redis, "spring.application.name 'shop~eu' contains '~'", "test.case=valid",
                "spring.application.name=shop~eu");
    }

    @Test
    void theReadmesCommentedNamespaceLineFailsStartupNamingTheProperty(RedisServerProcess redis, @TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("commented.properties");
        Files.writeString(file, "jobguard.namespace=billing             # defaults to spring.application.name\n"
                + "jobguard.key-prefix=jobguard \n", StandardCharsets.ISO_8859_1);
        startupFails(redis, "jobguard.namespace 'billing             # defaults to spring.application.name' contains "
                + "whitespace", "test.case=valid", "spring.config.additional-location=file:" + file);
        startupFails(redis, "jobguard.key-prefix 'jobguard ' starts or ends with whitespace", "test.case=valid",
                "spring.config.additional-location=file:" + file, "jobguard.namespace=billing");
        startupFails(redis, "jobguard.node-id 'n\u00a0' starts or ends with whitespace", "test.case=valid",
                "jobguard.node-id=n\u00a0");
    }

    @Test
    void badBatchPropertiesFailStartupNotFirstUse(RedisServerProcess redis) {
        startupFails(redis, "jobguard.batch.chunk-size must be positive, got 0", "test.case=valid",
                "jobguard.batch.chunk-size=0");
        startupFails(redis, "jobguard.batch.max-keys must be positive, got -1", "test.case=valid",
                "jobguard.batch.max-keys=-1");
        startupFails(redis, "jobguard.batch.namespaces[1] 'a|b' contains '|'", "test.case=valid",
                "jobguard.batch.namespaces=sku,a|b");
        startupFails(redis, "jobguard.default-lease must be at most 3650 days", "test.case=valid",
                "jobguard.default-lease=" + Long.MAX_VALUE + "s");
        startupFails(redis, "invalid jobguard.redis.durable-acquire.*: durable acquire replicas must not be "
                + "negative, got -1", "test.case=valid", "jobguard.redis.durable-acquire.replicas=-1");
    }

    @Test
    void badAnnotationValuesFailStartupNamingTheMethodAndSendNothing(RedisServerProcess redis) {
        redis.resetStats();
        startupFails(redis, "@ClusterSingleton on " + APP + "$BraceName.run(): job name 'reports{eu}' contains '{'",
                "test.case=brace-name");
        startupFails(redis, "@ClusterSingleton on " + APP + "$HugeLease.run(): lease of job 'HugeLease.run' must be "
                + "at most 3650 days", "test.case=huge-lease");
        startupFails(redis, "@BatchLocked on " + APP + "$BatchSeparator.reserve: namespace 'sku:eu' contains ':'",
                "test.case=batch-separator");
        startupFails(redis, "@BatchLocked on " + APP + "$BatchMicrosecond.reserve: lease must be at least 1 ms",
                "test.case=batch-microsecond");
        startupFails(redis, "jobguard.namespace 'a:b' contains ':'", "test.case=valid", "jobguard.namespace=a:b");
        Map<String, Long> calls = redis.commandStats();
        assertThat(calls.keySet()).as("nothing but the stats reset reached Redis: %s", calls)
                .allMatch(command -> command.startsWith("config"));
    }

    @Test
    void unknownJobGuardPropertiesAreWarnedAbout(RedisServerProcess redis, CapturedOutput output) {
        try (ConfigurableApplicationContext ok = start(redis, "test.case=valid", "jobguard.namspace=billing",
                "jobguard.batch.chunk-sise=10", "jobguard.jobs.MisuseApps.Valid.run.leese=1m",
                "jobguard.redis.eviction-check=warn", "jobguard.redis.reconect-delay-max=1s",
                "jobguard.actuator.write-enabeld=true")) {
            assertThat(ok.isRunning()).isTrue();
        }
        assertThat(output).contains("property jobguard.namspace", "is not a job-guard setting and is ignored; "
                + "did you mean jobguard.namespace?");
        assertThat(output).contains("property jobguard.batch.chunk-sise", "did you mean jobguard.batch.chunk-size?");
        assertThat(output).contains("property jobguard.jobs.misuseapps.valid.run.leese");
        assertThat(output).contains("property jobguard.redis.reconect-delay-max",
                "did you mean jobguard.redis.reconnect-delay-max?");
        assertThat(output).contains("property jobguard.actuator.write-enabeld",
                "did you mean jobguard.actuator.write-enabled?");
        assertThat(output).doesNotContain("property jobguard.node-id", "property jobguard.redis.eviction-check");
    }

    @FunctionalInterface
    private interface Holder {
        void hold(CountDownLatch holding, CountDownLatch release) throws InterruptedException;
    }

    private static void startupFails(RedisServerProcess redis, String message, String... props) {
        assertThatThrownBy(() -> start(redis, props).close())
                .satisfies(e -> assertThat(messages(e)).contains(message));
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        all.append(NestedExceptionUtils.getMostSpecificCause(e).getMessage());
        return all.toString();
    }

    private static ConfigurableApplicationContext start(RedisServerProcess redis, String... props) {
        List<String> all = new ArrayList<>(Arrays.asList(props));
        if (all.stream().noneMatch(p -> p.startsWith("jobguard.node-id="))) {
            all.add("jobguard.node-id=misuse");
        }
        return Nodes.context(redis, MisuseApps.class, WebApplicationType.NONE, all);
    }
}
