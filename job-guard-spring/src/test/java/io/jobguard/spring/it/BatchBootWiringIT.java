package io.jobguard.spring.it;

import io.jobguard.batch.BatchLockUnavailableException;
import io.jobguard.batch.BatchLocks;
import io.jobguard.batch.BatchResult;
import io.jobguard.micrometer.MetricNames;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.jobguard.shedlock.JobGuardLockProvider;
import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code @BatchLocked} in a Boot application: auto-configured batch locks, conflicts, metrics, actuator. */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class BatchBootWiringIT {

    private static final Json JSON = new Json();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void reset() {
        BatchApp.reset();
    }

    @Test
    void lockedMethodConflictsAndItsLeaseShowsOnTheEndpoint(RedisServerProcess redis, CapturedOutput output)
            throws Exception {
        try (ConfigurableApplicationContext app = Nodes.context(redis, BatchApp.class, WebApplicationType.SERVLET,
                List.of("server.port=0", "jobguard.node-id=batch-node", "jobguard.namespace=batch",
                        "jobguard.key-prefix=bootbatch", "jobguard.batch.default-lease=45s",
                        "jobguard.batch.namespaces=pallet", "management.endpoints.web.exposure.include=jobguard",
                        "spring.data.redis.lettuce.pool.enabled=true"))) {
            app.addApplicationListener((org.springframework.context.ApplicationListener<
                    org.springframework.context.event.ContextClosedEvent>) e -> BatchApp.release.countDown());
            BatchLocks locks = app.getBean(BatchLocks.class);
            assertThat(locks).isInstanceOf(RedisBatchLocks.class);
            assertThat(locks.config().nodeId()).isEqualTo("batch-node");
            BatchApp.Reservations reservations = app.getBean(BatchApp.Reservations.class);

            CompletableFuture<Integer> holder = CompletableFuture.supplyAsync(() -> {
                try {
                    return reservations.reserve(List.of("a", "b"));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            assertThat(BatchApp.holding.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> reservations.quick(List.of("b", "c")))
                    .isInstanceOfSatisfying(BatchLockUnavailableException.class, e -> {
                        assertThat(e.namespace()).isEqualTo("sku");
                        assertThat(e.result()).isEqualTo(BatchResult.CONFLICT);
                    })
                    .hasMessageContaining("b (held by batch-node)");
            // a WAIT that times out: it subscribes to release notifications, which must close cleanly below
            assertThat(locks.acquire("sku", List.of("a"), Duration.ofSeconds(5), Duration.ofMillis(300)).result())
                    .isEqualTo(BatchResult.TIMEOUT);
            SimpleLock report = app.getBean(JobGuardLockProvider.class).lock(new LockConfiguration(Instant.now(),
                    "report", Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
            try (var pallet = locks.tryAcquire("pallet", List.of("p1"), Duration.ofSeconds(20)).orElseThrow()) {
                String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base
                        + "/actuator/jobguard")).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                JsonNode leases = JSON.readTree(response.body()).path("batchLeases");
                assertThat(leases.size()).as(response.body()).isEqualTo(2);
                JsonNode sku = leases.get(0).path("namespace").asText().equals("sku") ? leases.get(0) : leases.get(1);
                JsonNode other = sku == leases.get(0) ? leases.get(1) : leases.get(0);
                assertThat(sku.path("namespace").asText()).isEqualTo("sku");
                assertThat(sku.path("holder").asText()).isEqualTo("batch-node");
                assertThat(sku.path("fencingToken").asLong()).isPositive();
                assertThat(Instant.parse(sku.path("acquiredAt").asText()))
                        .isAfter(Instant.now().minus(Duration.ofMinutes(1)));
                assertThat(Duration.parse(sku.path("expiresIn").asText()))
                        .isGreaterThan(Duration.ofSeconds(20)).isLessThanOrEqualTo(Duration.ofSeconds(45));
                assertThat(other.path("namespace").asText()).isEqualTo("pallet");
                assertThat(other.path("fencingToken").asLong()).isEqualTo(pallet.fencingToken());
                JsonNode held = JSON.readTree(response.body()).path("shedLocks");
                assertThat(held.size()).as(response.body()).isEqualTo(1);
                assertThat(held.get(0).path("name").asText()).isEqualTo("report");
                assertThat(held.get(0).path("nodeId").asText()).isEqualTo("batch-node");
                assertThat(Instant.parse(held.get(0).path("lockAtMostUntil").asText())).isAfter(Instant.now());
            } finally {
                report.unlock();
            }

            BatchApp.release.countDown();
            assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(reservations.quick(List.of("b", "c"))).isEqualTo(2);
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            assertThat(meters.find(MetricNames.BATCH_ACQUIRE).tag(MetricNames.TAG_NAMESPACE, "sku").timers())
                    .isNotEmpty();
        }
        assertThat(output).doesNotContain("PoolException").doesNotContain("Unable to unsubscribe");
    }
}
