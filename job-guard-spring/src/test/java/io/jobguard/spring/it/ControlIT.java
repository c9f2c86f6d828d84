package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunRecovery;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue 17 item 4 over real HTTP against two application instances sharing one Redis: pause on A
 * stops the job on B too (outcome PAUSED on both), resume on B starts it again, run-now on A runs
 * once in the cluster under its own fire time and returns the outcome; retry runs the latest fire time that failed
 * for good once more (at once, on the node asked, for its {@code @Scheduled} job; left to the nodes' passes for a job it
 * only lists) and answers a refusal with 409 naming why; writes are refused naming the property when disabled and
 * naming the role when the caller lacks it.
 */
@WithRedis
class ControlIT {

    private static final Json JSON = new Json();
    private static final String OPS = "OPS";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

    @AfterEach
    void close() {
        apps.forEach(ConfigurableApplicationContext::close);
        ControlApp.LOG.clear();
        ControlApp.REPORTS.clear();
    }

    @Test
    void pauseOnAStopsBResumeOnBRestartsAndRunNowRunsOnce(RedisServerProcess redis) throws Exception {
        String a = base(start(redis, "node-a", "jobguard.actuator.write-enabled=true", "jobguard.actuator.write-role=" + OPS));
        String b = base(start(redis, "node-b", "jobguard.actuator.write-enabled=true", "jobguard.actuator.write-role=" + OPS));
        await().atMost(Duration.ofSeconds(30)).until(() -> ControlApp.LOG.runs().size() >= 2);
        // the fleet spread (on by default): both nodes agree on the node that asks Redis for tick's fire times
        JobGuard guardA = apps.get(0).getBean(JobGuard.class);
        JobGuard guardB = apps.get(1).getBean(JobGuard.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> guardA.assignedNode("tick").isPresent()
                && guardA.assignedNode("tick").equals(guardB.assignedNode("tick")));
        String asking = guardA.assignedNode("tick").orElseThrow();
        String leaving = asking.equals("node-a") ? "node-b" : "node-a";

        HttpResponse<String> paused = post(a + "/actuator/jobguard/tick", "pause", "alice", OPS);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        System.out.println("sample POST pause: " + paused.body());
        assertThat(JSON.readTree(paused.body()).path("changed").asBoolean()).isTrue();
        Instant pausedAt = Instant.now();
        // the assigned node sees later firings as PAUSED, whichever node paused the job: the flag is cluster-wide; the
        // other node leaves them to it without asking
        await().atMost(Duration.ofSeconds(30)).until(() -> pausedDecisions(asking) >= 3
                && decisions(leaving, "ASSIGNED_ELSEWHERE") >= 3);
        assertThat(ControlApp.LOG.runs()).as("no fire time after the pause ran on any node")
                .noneMatch(r -> r.nominalFireTime().isAfter(pausedAt.plusSeconds(1)));
        String detailBody = get(b + "/actuator/jobguard/tick");
        System.out.println("sample GET job while paused: " + detailBody);
        JsonNode detail = JSON.readTree(detailBody);
        assertThat(detail.path("paused").path("node").asText()).isEqualTo("node-a");
        assertThat(detail.path("paused").path("by").asText()).isEqualTo("alice");
        List<JsonNode> fires = new ArrayList<>();
        detail.path("recentFires").forEach(fires::add);
        List<String> pausedFires = fires.stream().filter(f -> f.path("outcome").asText().equals("PAUSED"))
                .map(f -> f.path("nominalFireTime").asText()).toList();
        assertThat(pausedFires).as("each paused fire time is listed once")
                .isNotEmpty().doesNotHaveDuplicates();
        assertThat(fires).filteredOn(f -> f.path("outcome").asText().equals("RAN")).as("runs before the pause")
                .isNotEmpty().allSatisfy(f -> {
                    assertThat(f.path("node").asText()).isIn("node-a", "node-b");
                    assertThat(Duration.parse(f.path("duration").asText())).isGreaterThanOrEqualTo(Duration.ZERO);
                    assertThat(f.path("fencingToken").asLong()).isPositive();
                });
        assertThat(JSON.readTree(get(b + "/actuator/jobguard")).path("paused").path("tick").path("node").asText())
                .as("the node report lists paused jobs").isEqualTo("node-a");
        assertThat(JSON.readTree(post(a + "/actuator/jobguard/tick", "pause", "alice", OPS).body())
                .path("changed").asBoolean()).as("pausing twice changes nothing").isFalse();

        HttpResponse<String> resumed = post(b + "/actuator/jobguard/tick", "resume", "bob", OPS);
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        Instant resumedAt = Instant.now();
        await().atMost(Duration.ofSeconds(30)).until(() -> ControlApp.LOG.runs().stream()
                .anyMatch(r -> r.nominalFireTime().isAfter(resumedAt)));
        assertThat(JSON.readTree(get(a + "/actuator/jobguard/tick")).path("paused").isNull()).isTrue();
        assertThat(JSON.readTree(get(a + "/actuator/jobguard")).path("paused").isEmpty()).isTrue();

        HttpResponse<String> ran = post(a + "/actuator/jobguard/tick", "run-now", "alice", OPS);
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        System.out.println("sample POST run-now: " + ran.body());
        JsonNode result = JSON.readTree(ran.body());
        assertThat(result.path("outcome").asText()).isEqualTo("RAN");
        Instant fireTime = Instant.parse(result.path("fireTime").asText());
        assertThat(fireTime.toEpochMilli() % 1000).as("its own fire time, off the cron grid").isNotZero();
        // other fire times keep running; this one ran exactly once, on A, in the whole cluster
        await().atMost(Duration.ofSeconds(30)).until(() -> ControlApp.LOG.runs().stream()
                .anyMatch(r -> r.nominalFireTime().isAfter(fireTime.plusSeconds(2))));
        assertThat(ControlApp.LOG.byFireTime().get(fireTime)).containsExactly("node-a");
        List<JsonNode> after = new ArrayList<>();
        JSON.readTree(get(b + "/actuator/jobguard/tick")).path("recentFires").forEach(after::add);
        assertThat(after).filteredOn(f -> f.path("nominalFireTime").asText().equals(fireTime.toString()))
                .as("the run-now fire time, seen from B").singleElement().satisfies(f -> {
                    assertThat(f.path("node").asText()).isEqualTo("node-a");
                    assertThat(f.path("outcome").asText()).isEqualTo("RAN");
                });
        assertThat(ControlApp.LOG.byFireTime().values()).allSatisfy(nodes -> assertThat(nodes).hasSize(1));
    }

    @Test
    void writesAreRefusedNamingThePropertyOrTheRole(RedisServerProcess redis) throws Exception {
        String off = base(start(redis, "node-off"));
        HttpResponse<String> refused = post(off + "/actuator/jobguard/tick", "pause", "alice", OPS);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("set jobguard.actuator.write-enabled=true");
        System.out.println("sample POST refused (disabled): " + refused.body());

        String on = base(start(redis, "node-on", "jobguard.actuator.write-enabled=true",
                "jobguard.actuator.write-role=" + OPS, "jobguard.actuator.force-release-enabled=true"));
        HttpResponse<String> noRole = post(on + "/actuator/jobguard/tick", "pause", "mallory", "VIEWER");
        assertThat(noRole.statusCode()).isEqualTo(403);
        assertThat(noRole.body()).contains("the caller lacks the role OPS (jobguard.actuator.write-role)");
        System.out.println("sample POST refused (role): " + noRole.body());
        HttpResponse<String> anonymous = post(on + "/actuator/jobguard/tick", "pause", null, null);
        assertThat(anonymous.statusCode()).isEqualTo(403);
        HttpResponse<String> release = http.send(HttpRequest.newBuilder(URI.create(on + "/actuator/jobguard/tick"))
                .header("X-User", "mallory").header("X-Roles", "VIEWER").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(release.statusCode()).isEqualTo(403);
        assertThat(release.body()).contains("lacks the role OPS");
        assertThat(JSON.readTree(get(on + "/actuator/jobguard/tick")).path("paused").isNull())
                .as("no refused write changed anything").isTrue();
        // what the node report tells the dashboard about its buttons follows the same role check
        JsonNode viewerWrites = JSON.readTree(getAs(on + "/actuator/jobguard", "mallory", "VIEWER")).path("writes");
        assertThat(viewerWrites.path("control").asBoolean()).as("a caller without OPS gets no buttons").isFalse();
        assertThat(viewerWrites.path("forceRelease").asBoolean()).isFalse();
        JsonNode opsWrites = JSON.readTree(getAs(on + "/actuator/jobguard", "alice", OPS)).path("writes");
        assertThat(opsWrites.path("control").asBoolean()).as("the OPS caller gets them").isTrue();
        assertThat(opsWrites.path("forceRelease").asBoolean()).isTrue();
        HttpResponse<String> unknown = post(on + "/actuator/jobguard/tick", "stop", "alice", OPS);
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("use pause, resume, run-now or retry");
    }

    @Test
    void retryRunsTheLatestFailedFireTimeOnceMoreAndNamesWhyItRefuses(RedisServerProcess redis) throws Exception {
        ConfigurableApplicationContext app = start(redis, "node-a", "jobguard.actuator.write-enabled=true",
                "jobguard.actuator.write-role=" + OPS);
        String a = base(app);
        Instant t = failReport(app);

        HttpResponse<String> missing = postBody(a + "/actuator/jobguard/report", "{\"action\":\"retry\"}", "alice", OPS);
        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(400);
        assertThat(JSON.readTree(missing.body()).path("message").asText()).startsWith("retry needs fireTime");
        HttpResponse<String> bad = retry(a, "\"yesterday\"", "alice", OPS);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).path("message").asText()).contains("fireTime", "(got 'yesterday')");
        HttpResponse<String> earlier = retry(a, "\"" + t.minusSeconds(60) + "\"", "alice", OPS);
        assertThat(earlier.statusCode()).as(earlier.body()).isEqualTo(409);
        assertThat(JSON.readTree(earlier.body()).path("outcome").asText()).isEqualTo("NOT_LATEST");
        assertThat(JSON.readTree(earlier.body()).path("message").asText()).contains("a later fire time");
        assertThat(ControlApp.REPORTS).as("no refusal ran anything").isEmpty();

        // epoch millis, as a JSON number: the node asked runs attempt 2 at once and answers with its outcome
        HttpResponse<String> retried = retry(a, Long.toString(t.toEpochMilli()), "alice", OPS);
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        System.out.println("sample POST retry: " + retried.body());
        JsonNode result = JSON.readTree(retried.body());
        assertThat(result.path("outcome").asText()).isEqualTo("RAN");
        assertThat(result.path("changed").asBoolean()).isTrue();
        assertThat(Instant.parse(result.path("fireTime").asText())).isEqualTo(t);
        assertThat(result.path("message").asText()).isEqualTo("attempt 2 ran on this node");
        assertThat(ControlApp.REPORTS).containsExactly("node-a|" + t + "|2");

        List<JsonNode> fires = new ArrayList<>();
        JSON.readTree(get(a + "/actuator/jobguard/report")).path("recentFires").forEach(fires::add);
        assertThat(fires).extracting(f -> f.path("attempt").asInt() + " " + f.path("outcome").asText())
                .containsExactly("2 RAN", "1 RETRY_BY_HAND", "1 FAILED");
        assertThat(fires).allSatisfy(f -> assertThat(f.path("nominalFireTime").asText()).isEqualTo(t.toString()));
        assertThat(fires.get(0).path("fencingToken").asLong()).isGreaterThan(fires.get(2).path("fencingToken").asLong());

        HttpResponse<String> again = retry(a, "\"" + t + "\"", "alice", OPS);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(JSON.readTree(again.body()).path("outcome").asText()).as("it ran").isEqualTo("NOT_FAILED");
        HttpResponse<String> paused = post(a + "/actuator/jobguard/report", "pause", "alice", OPS);
        assertThat(paused.statusCode()).as("a write without fireTime still reaches the endpoint: " + paused.body())
                .isEqualTo(200);
        assertThat(ControlApp.REPORTS).hasSize(1);
    }

    @Test
    void retryOfAJobThisNodeOnlyListsIsLeftToTheNodesPasses(RedisServerProcess redis) throws Exception {
        ConfigurableApplicationContext app = start(redis, "node-a", "jobguard.actuator.write-enabled=true");
        JobGuard guard = app.getBean(JobGuard.class);
        JobOptions imported = JobOptions.builder("imported", Duration.ofSeconds(10)).build();
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThatThrownBy(() -> guard.run(imported, t, () -> {
            throw new IllegalStateException("fails on purpose");
        })).isInstanceOf(IllegalStateException.class);

        HttpResponse<String> retried = postBody(base(app) + "/actuator/jobguard/imported",
                "{\"action\":\"retry\",\"fireTime\":\"" + t + "\"}", null, null);
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        JsonNode result = JSON.readTree(retried.body());
        assertThat(result.path("outcome").asText()).isEqualTo("SCHEDULED");
        assertThat(result.path("message").asText()).contains("attempt 2 is pending cluster-wide",
                "this node does not run the job");
        List<String> ran = new ArrayList<>();
        // what a node's pass does
        assertThat(guard.runDueRetry(imported, () -> ran.add("attempt 2"))).isTrue();
        assertThat(ran).containsExactly("attempt 2");
    }

    @Test
    void retryIsAWriteSecuredLikePause(RedisServerProcess redis) throws Exception {
        String off = base(start(redis, "node-off"));
        ConfigurableApplicationContext onApp = start(redis, "node-on", "jobguard.actuator.write-enabled=true",
                "jobguard.actuator.write-role=" + OPS);
        String on = base(onApp);
        Instant t = failReport(onApp);
        String fireTime = "\"" + t + "\"";

        HttpResponse<String> disabled = retry(off, fireTime, "alice", OPS);
        assertThat(disabled.statusCode()).isEqualTo(403);
        assertThat(disabled.body()).contains("retry is disabled; set jobguard.actuator.write-enabled=true");
        HttpResponse<String> noRole = retry(on, fireTime, "mallory", "VIEWER");
        assertThat(noRole.statusCode()).isEqualTo(403);
        assertThat(noRole.body()).contains("the caller lacks the role OPS (jobguard.actuator.write-role)");
        assertThat(retry(on, fireTime, null, null).statusCode()).as("anonymous").isEqualTo(403);

        JobGuard guard = onApp.getBean(JobGuard.class);
        JobId report = new JobId(guard.config().namespace(), "report");
        assertThat(guard.store().capability(RunRecovery.class).orElseThrow().runRecord(report).orElseThrow().retry())
                .as("no refused request left an attempt pending").isNull();
        assertThat(guard.store().capability(RunHistory.class).orElseThrow().fireHistory(report, 10))
                .extracting(RunHistory.FireEntry::outcome).containsExactly("FAILED");
        assertThat(ControlApp.REPORTS).isEmpty();

        HttpResponse<String> allowed = retry(on, fireTime, "alice", OPS);
        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
        assertThat(ControlApp.REPORTS).containsExactly("node-on|" + t + "|2");
    }

    /** A fire time of the daily {@code report} job whose run failed (no retries): the job's latest. */
    private static Instant failReport(ConfigurableApplicationContext app) {
        JobGuard guard = app.getBean(JobGuard.class);
        JobOptions report = JobOptions.builder("report", Duration.ofSeconds(10)).build();
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThatThrownBy(() -> guard.run(report, t, () -> {
            throw new IllegalStateException("the report's database is down");
        })).isInstanceOf(IllegalStateException.class);
        return t;
    }

    private HttpResponse<String> retry(String base, String fireTimeJson, String user, String roles)
            throws IOException, InterruptedException {
        return postBody(base + "/actuator/jobguard/report", "{\"action\":\"retry\",\"fireTime\":" + fireTimeJson + "}",
                user, roles);
    }

    private long pausedDecisions(String node) {
        return decisions(node, "PAUSED");
    }

    private long decisions(String node, String outcome) {
        return ControlApp.LOG.decisions().stream().filter(d -> d.contains(" " + node + " " + outcome + " ")).count();
    }

    private ConfigurableApplicationContext start(RedisServerProcess redis, String node, String... props) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "jobguard.node-id=" + node,
                "jobguard.namespace=control", "management.endpoints.web.exposure.include=jobguard",
                "management.endpoint.jobguard.access=unrestricted"));
        all.addAll(List.of(props));
        ConfigurableApplicationContext app = Nodes.context(redis, ControlApp.class, WebApplicationType.SERVLET, all);
        apps.add(app);
        return app;
    }

    private static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    private String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
        return response.body();
    }

    private String getAs(String url, String user, String roles) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).header("X-User", user)
                .header("X-Roles", roles).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
        return response.body();
    }

    private HttpResponse<String> post(String url, String action, String user, String roles)
            throws IOException, InterruptedException {
        return postBody(url, "{\"action\":\"" + action + "\"}", user, roles);
    }

    private HttpResponse<String> postBody(String url, String body, String user, String roles)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (user != null) {
            request.header("X-User", user).header("X-Roles", roles);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
