package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17 item 5 over real HTTP: the {@code jobguard} health indicator shows the store reachable
 * with its round trip and the clock skew; an unreachable store or a skew beyond the tolerance is
 * reported as UNKNOWN, which keeps the application UP (HTTP 200), unless
 * {@code jobguard.actuator.unhealthy-status=DOWN} takes it out of service (HTTP 503).
 */
@WithRedis
class HealthIT {

    private static final Json JSON = new Json();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

    @AfterEach
    void close() {
        apps.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void reachableStoreIsUpAndAnUnreachableOneKeepsTheAppInServiceUnlessConfigured(RedisServerProcess redis)
            throws Exception {
        String lenient = base(start(redis, "health-a"));
        String strict = base(start(redis, "health-b", "jobguard.actuator.unhealthy-status=down"));

        HttpResponse<String> up = health(lenient);
        System.out.println("health (store reachable): " + up.body());
        assertThat(up.statusCode()).isEqualTo(200);
        JsonNode jobguard = JSON.readTree(up.body()).path("components").path("jobguard");
        assertThat(jobguard.path("status").asText()).isEqualTo("UP");
        assertThat(jobguard.path("details").path("store").asText()).isEqualTo("reachable");
        assertThat(Duration.parse(jobguard.path("details").path("roundTrip").asText())).isPositive();
        assertThat(Duration.parse(jobguard.path("details").path("clockSkew").asText()).abs())
                .isLessThan(Duration.ofSeconds(5));
        assertThat(health(strict).statusCode()).isEqualTo(200);

        redis.stop();
        try {
            HttpResponse<String> lenientDown = health(lenient);
            System.out.println("health (store unreachable): " + lenientDown.body());
            JsonNode body = JSON.readTree(lenientDown.body());
            assertThat(lenientDown.statusCode()).as(lenientDown.body()).isEqualTo(200);
            assertThat(body.path("status").asText()).isEqualTo("UP");
            assertThat(body.path("components").path("jobguard").path("status").asText()).isEqualTo("UNKNOWN");
            assertThat(body.path("components").path("jobguard").path("details").path("store").asText())
                    .isEqualTo("unreachable");

            HttpResponse<String> strictDown = health(strict);
            assertThat(strictDown.statusCode()).as(strictDown.body()).isEqualTo(503);
            assertThat(JSON.readTree(strictDown.body()).path("components").path("jobguard").path("status").asText())
                    .isEqualTo("DOWN");
        } finally {
            redis.ensureRunning();
        }
    }

    @Test
    void skewBeyondTheToleranceIsReported(RedisServerProcess redis) throws Exception {
        String skewed = base(start(redis, "health-skewed", "test.clock-offset-ms=600000"));
        HttpResponse<String> response = health(skewed);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode jobguard = JSON.readTree(response.body()).path("components").path("jobguard");
        assertThat(jobguard.path("status").asText()).isEqualTo("UNKNOWN");
        assertThat(jobguard.path("details").path("problem").asText())
                .contains("exceeds the tolerance PT5M (jobguard.skew-tolerance)");
    }

    /** After a loss of Redis' data, while a job's fire times are refused, the indicator says until when (still UP). */
    @Test
    void aJobRecoveringFromADataLossIsShownUntilItsRefusalEnds(RedisServerProcess redis) throws Exception {
        ConfigurableApplicationContext app = start(redis, "health-loss");
        JobGuard guard = app.getBean(JobGuard.class);
        JobOptions job = JobOptions.builder("loss-report", Duration.ofSeconds(10)).build();
        // this node fires 3 s ahead once, so after the loss the fire times of the next 3.25 s may have run
        assertThat(guard.run(job, Instant.now().plusSeconds(3), () -> { })).isEqualTo(RunOutcome.RAN);
        redis.flushAll();
        assertThat(guard.run(job, Instant.now(), () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        HttpResponse<String> response = health(base(app));
        JsonNode jobguard = JSON.readTree(response.body()).path("components").path("jobguard");
        assertThat(jobguard.path("status").asText()).as(response.body()).isEqualTo("UP");
        assertThat(jobguard.path("details").path("dataLoss").asText()).as(response.body())
                .startsWith("recovering from a data loss until ");
        Instant until = Instant.parse(jobguard.path("details").path("recovering").path("loss-report").asText());
        assertThat(until).as("the fleet's lead (3 s) + 250 ms, not skew-tolerance")
                .isBetween(Instant.now(), Instant.now().plusSeconds(5));
        // the endpoint (and the dashboard reading it) shows the same recovery, then nothing once it has ended
        HttpResponse<String> report = endpoint(base(app));
        JsonNode loss = JSON.readTree(report.body()).path("dataLoss");
        assertThat(Instant.parse(loss.path("jobs").path("loss-report").asText())).as(report.body()).isEqualTo(until);
        // the app's own every-second job may be refused in the same moment: the node's end is the latest job's
        Instant latest = loss.path("jobs").properties().stream().map(e -> Instant.parse(e.getValue().asText()))
                .max(Instant::compareTo).orElseThrow();
        assertThat(Instant.parse(loss.path("recoveringUntil").asText())).as(report.body()).isEqualTo(latest);
        Instant healthLatest = jobguard.path("details").path("recovering").properties().stream()
                .map(e -> Instant.parse(e.getValue().asText())).max(Instant::compareTo).orElseThrow();
        assertThat(jobguard.path("details").path("dataLoss").asText()).as(response.body())
                .endsWith(healthLatest.toString());
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(JSON.readTree(health(base(app)).body()).path("components").path("jobguard").path("details")
                    .has("dataLoss")).isFalse();
            HttpResponse<String> after = endpoint(base(app));
            assertThat(JSON.readTree(after.body()).path("dataLoss").isNull()).as(after.body()).isTrue();
        });
    }

    private ConfigurableApplicationContext start(RedisServerProcess redis, String node, String... props) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "jobguard.node-id=" + node,
                "jobguard.namespace=health", "management.endpoints.web.exposure.include=health,jobguard",
                "management.endpoint.health.show-details=always", "spring.data.redis.timeout=2s",
                "management.health.redis.enabled=false"));
        all.addAll(List.of(props));
        ConfigurableApplicationContext app = Nodes.context(redis, ControlApp.class, WebApplicationType.SERVLET, all);
        apps.add(app);
        return app;
    }

    private HttpResponse<String> endpoint(String base) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/jobguard")).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    private HttpResponse<String> health(String base) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/health")).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
