package io.jobguard.spring.it;

import io.jobguard.micrometer.MetricNames;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The jobguard actuator endpoint over real HTTP, on a started application with a live lease. */
@WithRedis
class ActuatorIT {

    private static final Json JSON = new Json();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void reset() {
        WebApp.reset();
    }

    @AfterEach
    void releaseJob() {
        WebApp.release.countDown();
    }

    @Test
    void readShowsTheNodeTheJobAndItsLiveLeaseAndDeleteIsRefusedUnlessEnabled(RedisServerProcess redis)
            throws Exception {
        try (ConfigurableApplicationContext app = start(redis, "management.endpoint.jobguard.access=unrestricted")) {
            String base = base(app);
            assertThat(WebApp.started.await(10, TimeUnit.SECONDS)).isTrue();

            JsonNode report = JSON.readTree(get(base + "/actuator/jobguard", 200));
            assertThat(report.path("node").asText()).isEqualTo("web-node");
            assertThat(report.path("namespace").asText()).isEqualTo("web");
            assertThat(report.path("clockSkew").asText()).startsWith("PT");
            JsonNode job = report.path("jobs").get(0);
            assertThat(job.path("name").asText()).isEqualTo("held");
            assertThat(job.path("type").asText()).isEqualTo("RETURN");
            assertThat(job.path("lease").asText()).isEqualTo("PT30S");
            assertThat(job.path("busyGrace").asText()).as("default grace, 1 s").isEqualTo("PT1S");
            assertThat(job.path("schedule").asText()).startsWith("cron \"* * * * * *\"");
            assertThat(Instant.parse(job.path("nextNominalFireTime").asText())).isAfter(Instant.now().minusSeconds(2));
            // the fleet spread (on by default) assigns the cron job to the one live node once it has read the fleet
            await().atMost(Duration.ofSeconds(5)).until(() -> JSON.readTree(get(base + "/actuator/jobguard", 200))
                    .path("jobs").get(0).path("assignedNode").asText(), "web-node"::equals);
            JsonNode lease = report.path("runLeases").get(0);
            assertThat(lease.path("job").asText()).isEqualTo("held");
            assertThat(lease.path("holder").asText()).isEqualTo("web-node");
            Instant fireTime = Instant.parse(lease.path("nominalFireTime").asText());
            assertThat(fireTime.toEpochMilli() % 1000).isZero();
            assertThat(Instant.parse(lease.path("acquiredAt").asText())).isAfterOrEqualTo(fireTime.minusSeconds(1));
            assertThat(Duration.parse(lease.path("expiresIn").asText())).isPositive();
            assertThat(lease.path("fencingToken").asLong()).isPositive();

            JsonNode detail = JSON.readTree(get(base + "/actuator/jobguard/held", 200));
            assertThat(detail.path("job").path("assignedNode").asText()).isEqualTo("web-node");
            assertThat(detail.path("runLease").path("holder").asText()).isEqualTo("web-node");
            assertThat(detail.path("recentFires").get(0).path("node").asText()).isEqualTo("web-node");
            assertThat(detail.path("recentFires").get(0).path("outcome").asText())
                    .as("the run still holds its lease").isEqualTo("STARTED");
            assertThat(detail.path("recentFires").get(0).path("fencingToken").asLong())
                    .isEqualTo(lease.path("fencingToken").asLong());
            assertThat(detail.path("recentFires").get(0).path("nominalFireTime").asText())
                    .isEqualTo(fireTime.toString());
            get(base + "/actuator/jobguard/no-such-job", 404);

            HttpResponse<String> refused = delete(base + "/actuator/jobguard/held");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("jobguard.actuator.force-release-enabled");
            assertThat(JSON.readTree(get(base + "/actuator/jobguard/held", 200)).path("runLease").path("holder")
                    .asText()).isEqualTo("web-node");

            MeterRegistry meters = app.getBean(MeterRegistry.class);
            assertThat(meters.get(MetricNames.LEASES_ACTIVE).tag(MetricNames.TAG_NAMESPACE, "web").gauge().value())
                    .isEqualTo(1.0);
            await().atMost(Duration.ofSeconds(5)).until(() -> Double.isFinite(
                    meters.get(MetricNames.CLOCK_SKEW).tag(MetricNames.TAG_NAMESPACE, "web").gauge().value()));
            assertThat(meters.get(MetricNames.CLOCK_SKEW_TOLERANCE).tag(MetricNames.TAG_NAMESPACE, "web").gauge().value())
                    .as("the default jobguard.skew-tolerance, 5 min").isEqualTo(300.0);
            assertThat(meters.find(MetricNames.JOB_LAST_RUN).tag(MetricNames.TAG_JOB, "held").gauge())
                    .as("no run of the job has ended yet: the held one is still running").isNull();
        }
    }

    @Test
    void deleteIsNotMappedWhileTheEndpointIsReadOnly(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = start(redis, "jobguard.actuator.force-release-enabled=true",
                "jobguard.spread.enabled=false")) {
            String base = base(app);
            assertThat(WebApp.started.await(10, TimeUnit.SECONDS)).isTrue();
            // the spread off, no job has an assigned node (on, the node names itself within a second: the test above)
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(15)).until(() -> {
                JsonNode job = JSON.readTree(get(base + "/actuator/jobguard", 200)).path("jobs").get(0);
                return job.has("assignedNode") && job.path("assignedNode").isNull();
            });
            assertThat(JSON.readTree(get(base + "/actuator/jobguard/held", 200)).path("job").path("assignedNode")
                    .isNull()).isTrue();
            HttpResponse<String> refused = delete(base + "/actuator/jobguard/held");
            assertThat(refused.statusCode()).isEqualTo(405);
            assertThat(JSON.readTree(refused.body()).path("message").asText())
                    .contains("management.endpoint.jobguard.access=unrestricted")
                    .doesNotContain("force-release-enabled");
            assertThat(JSON.readTree(get(base + "/actuator/jobguard/held", 200)).path("runLease").path("holder")
                    .asText()).isEqualTo("web-node");
        }
    }

    @Test
    void deleteAndPostOnTheDefaultReadOnlyEndpointNameBothSettingsTheyNeed(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = start(redis)) {
            String base = base(app);
            assertThat(WebApp.started.await(10, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> refused = delete(base + "/actuator/jobguard/held");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(405);
            JsonNode body = JSON.readTree(refused.body());
            assertThat(body.path("job").asText()).isEqualTo("held");
            assertThat(body.path("released").asBoolean()).isFalse();
            assertThat(body.path("message").asText()).contains("management.endpoint.jobguard.access=unrestricted",
                    "jobguard.actuator.force-release-enabled=true");
            assertThat(JSON.readTree(get(base + "/actuator/jobguard/held", 200)).path("runLease").path("holder")
                    .asText()).isEqualTo("web-node");
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/jobguard/held"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"pause\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            System.out.println("sample POST on the read-only endpoint: " + post.statusCode() + " " + post.body());
            assertThat(post.statusCode()).as(post.body()).isEqualTo(405);
            assertThat(JSON.readTree(post.body()).path("message").asText())
                    .contains("management.endpoint.jobguard.access=unrestricted", "jobguard.actuator.write-enabled=true");
            assertThat(JSON.readTree(get(base + "/actuator/jobguard/held", 200)).path("paused").isNull())
                    .as("the refused POST paused nothing").isTrue();
            // any other path keeps Spring MVC's own answer
            assertThat(delete(base + "/actuator/jobguard").statusCode()).isEqualTo(405);
            assertThat(delete(base + "/actuator/jobguard").body()).doesNotContain("force-release");
        }
    }

    @Test
    void deleteForceReleasesTheLeaseWhenEnabledAndCountsOutcomes(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = start(redis, "management.endpoint.jobguard.access=unrestricted",
                "jobguard.actuator.force-release-enabled=true")) {
            String base = base(app);
            assertThat(WebApp.started.await(10, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> released = delete(base + "/actuator/jobguard/held");
            assertThat(released.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(released.body()).path("released").asBoolean()).isTrue();
            assertThat(JSON.readTree(get(base + "/actuator/jobguard/held", 200)).path("runLease").isNull()).isTrue();

            WebApp.release.countDown();
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            // the scheduler thread registers the counter, then the timers: wait for all three
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(meters.find(MetricNames.JOB_RUNS).tags(MetricNames.TAG_JOB, "held", MetricNames.TAG_OUTCOME,
                        "RAN", MetricNames.TAG_NAMESPACE, "web").counter()).isNotNull();
                assertThat(meters.find(MetricNames.JOB_ACQUIRE).tags(MetricNames.TAG_JOB, "held").timer()).isNotNull();
                assertThat(meters.find(MetricNames.JOB_DURATION).tags(MetricNames.TAG_JOB, "held").timer()).isNotNull();
            });
            List<String> tagKeys = new ArrayList<>();
            meters.find(MetricNames.JOB_RUNS).counters().forEach(c -> c.getId().getTags()
                    .forEach(t -> tagKeys.add(t.getKey())));
            assertThat(tagKeys).containsOnly(MetricNames.TAG_JOB, MetricNames.TAG_OUTCOME, MetricNames.TAG_NAMESPACE,
                    MetricNames.TAG_ATTEMPT);
            Gauge active = meters.get(MetricNames.LEASES_ACTIVE).gauge();
            assertThat(active.getId().getTag(MetricNames.TAG_NAMESPACE)).isEqualTo("web");
        }
    }

    /** Lets the held job finish before the context closes, so closing does not wait for it. */
    private static ConfigurableApplicationContext start(RedisServerProcess redis, String... props) {
        ConfigurableApplicationContext app = startApp(redis, props);
        app.addApplicationListener((org.springframework.context.ApplicationListener<
                org.springframework.context.event.ContextClosedEvent>) e -> WebApp.release.countDown());
        return app;
    }

    private static ConfigurableApplicationContext startApp(RedisServerProcess redis, String... props) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "jobguard.node-id=web-node",
                "jobguard.namespace=web", "management.endpoints.web.exposure.include=jobguard"));
        all.addAll(List.of(props));
        return Nodes.context(redis, WebApp.class, WebApplicationType.SERVLET, all);
    }

    private static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    private String get(String url, int expectedStatus) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(expectedStatus);
        return response.body();
    }

    private HttpResponse<String> post(String url, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> delete(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    }
}
