package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import io.jobguard.GuardType;
import io.jobguard.NodeConfig;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.batch.BatchLockUnavailableException;
import io.jobguard.batch.BatchLocks;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@code @BatchLocked} on plain Spring beans (no Boot, no AspectJ weaver) against a real Redis. */
@WithRedis
class BatchLockedAdvisorIT {

    private final RedisServerProcess server;
    private LettuceConnectionFactory connectionFactory;
    private RedisBatchLocks appLocks;
    private RedisBatchLocks otherNode;
    private AnnotationConfigApplicationContext context;

    BatchLockedAdvisorIT(RedisServerProcess server) {
        this.server = server;
    }

    /** What the bean's methods saw: how often they ran, and which of their keys another node could take meanwhile. */
    public static final class Recorder {
        final AtomicInteger runs = new AtomicInteger();
        final List<String> freeWhileRunning = new ArrayList<>();
        final BatchLocks otherNode;

        Recorder(BatchLocks otherNode) {
            this.otherNode = otherNode;
        }

        void probe(String key) {
            BatchAttempt attempt = otherNode.tryAcquire("sku", List.of(key), Duration.ofSeconds(1));
            if (attempt.acquired()) {
                freeWhileRunning.add(key);
                attempt.orElseThrow().close();
            }
        }
    }

    /** A bean whose methods lock SKUs (proxied by class: it has no interface). */
    public static class Inventory {
        private final Recorder recorder;

        public Inventory(Recorder recorder) {
            this.recorder = recorder;
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s")
        public int reserve(List<String> skus) {
            recorder.runs.incrementAndGet();
            skus.forEach(this::probe);
            return skus.size();
        }

        @BatchLocked(namespace = "sku", keys = "#order.skus()", lease = "30s")
        public String ship(Order order) {
            recorder.runs.incrementAndGet();
            order.skus().forEach(this::probe);
            return order.id();
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s")
        public void count(String... skus) {
            recorder.runs.incrementAndGet();
            List.of(skus).forEach(this::probe);
        }

        @BatchLocked(namespace = "sku", keys = "#sku", lease = "30s", type = GuardType.WAIT, waitFor = "20s")
        public void adjust(long sku) {
            recorder.runs.incrementAndGet();
            probe(Long.toString(sku));
        }

        @BatchLocked(namespace = "sku", keys = "#skus", whenUnavailable = BatchLocked.Unavailable.SKIP)
        public void tidy(List<String> skus) {
            recorder.runs.incrementAndGet();
        }

        private void probe(String key) {
            recorder.probe(key);
        }
    }

    /** An argument whose keys come from a property. */
    public record Order(String id, List<String> skus) {
    }

    /** A misconfigured bean: must fail the context at startup. */
    public static class Broken {
        @BatchLocked(namespace = "sku", keys = "#skus", lease = "soon")
        public void run(List<String> skus) {
        }
    }

    @BeforeEach
    void start() {
        connectionFactory = server.connectionFactory();
        appLocks = RedisBatchLocks.create(connectionFactory, "jgtest", BatchLockConfig.builder()
                .node(NodeConfig.builder().nodeId("app").build()).build());
        otherNode = RedisBatchLocks.create(connectionFactory, "jgtest", BatchLockConfig.builder()
                .node(NodeConfig.builder().nodeId("other").build()).build());
        context = new AnnotationConfigApplicationContext();
        context.registerBean(BatchLocks.class, () -> appLocks);
        context.registerBean(Recorder.class, () -> new Recorder(otherNode));
        context.register(BatchLockingConfiguration.class, Inventory.class);
        context.refresh();
    }

    @AfterEach
    void stop() {
        context.close();
        appLocks.close();
        otherNode.close();
        connectionFactory.destroy();
    }

    @Test
    void keysFromACollectionAPropertyOrAnArrayAreHeldWhileTheMethodRunsAndReleasedAfter() {
        Inventory inventory = context.getBean(Inventory.class);
        assertThat(inventory.reserve(List.of("a", "b", "a"))).isEqualTo(3);
        assertThat(inventory.ship(new Order("o1", List.of("c", "d")))).isEqualTo("o1");
        inventory.count("e", "f");
        assertThat(context.getBean(Recorder.class).runs).hasValue(3);
        assertThat(context.getBean(Recorder.class).freeWhileRunning).as("no key was free while its method ran").isEmpty();
        try (BatchLease after = otherNode.tryAcquire("sku", List.of("a", "b", "c", "d", "e", "f"), Duration.ofSeconds(5))
                .orElseThrow()) {
            assertThat(after.keyCount()).isEqualTo(6);
        }
    }

    @Test
    void aConflictThrowsAndTheMethodDoesNotRun() {
        Inventory inventory = context.getBean(Inventory.class);
        try (BatchLease held = otherNode.tryAcquire("sku", List.of("b"), Duration.ofSeconds(30)).orElseThrow()) {
            assertThatThrownBy(() -> inventory.reserve(List.of("a", "b")))
                    .isInstanceOf(BatchLockUnavailableException.class)
                    .hasMessageContaining("'sku'").hasMessageContaining("b (held by other)");
            inventory.tidy(List.of("b"));
            assertThat(held.isValid()).isTrue();
        }
        assertThat(context.getBean(Recorder.class).runs).hasValue(0);
    }

    @Test
    void waitRunsOnceTheHolderReleases() throws Exception {
        Inventory inventory = context.getBean(Inventory.class);
        BatchLease held = otherNode.tryAcquire("sku", List.of("42"), Duration.ofSeconds(30)).orElseThrow();
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> inventory.adjust(42L));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !call.isDone());
        assertThat(context.getBean(Recorder.class).runs).hasValue(0);
        held.close();
        call.get(10, TimeUnit.SECONDS);
        assertThat(context.getBean(Recorder.class).runs).hasValue(1);
    }

    @Test
    void aBadAnnotationFailsTheContextAtStartupNamingTheMethod() {
        try (AnnotationConfigApplicationContext broken = new AnnotationConfigApplicationContext()) {
            broken.registerBean(BatchLocks.class, () -> appLocks);
            broken.register(BatchLockingConfiguration.class, Broken.class);
            assertThatThrownBy(broken::refresh).isInstanceOf(BeanCreationException.class)
                    .hasStackTraceContaining("Broken.run").hasStackTraceContaining("soon");
        }
    }
}
