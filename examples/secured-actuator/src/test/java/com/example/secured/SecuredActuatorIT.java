package com.example.secured;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 17: the endpoint's writes behind real Spring Security (HTTP Basic, in-memory users, Boot's
 * {@code EndpointRequest} matcher) over real HTTP on a real Redis. A caller lacking
 * {@code jobguard.actuator.write-role} is refused with 403 and a body naming the role and the
 * property, for POST and DELETE; an anonymous caller never reaches the endpoint (401); the caller with
 * the role pauses and resumes the job, and the pause flag records its Spring Security principal.
 * It also captures the endpoint's and the health indicator's output, the samples docs/operations.md shows.
 */
@WithRedis
class SecuredActuatorIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ConfigurableApplicationContext app;

    @AfterEach
    void close() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void writesNeedTheRoleNamedByTheProperty(RedisServerProcess redis) throws Exception {
        app = new SpringApplicationBuilder(SecuredApplication.class).run("--server.port=0",
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--jobguard.node-id=secured-node");
        String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        String job = base + "/actuator/jobguard/report";

        assertThat(send(job, "POST", null, "pause").statusCode()).as("anonymous").isEqualTo(401);

        HttpResponse<String> viewerPause = send(job, "POST", "viewer:viewer-secret", "pause");
        System.out.println("sample POST by a caller lacking the role: " + viewerPause.statusCode() + " "
                + viewerPause.body());
        assertThat(viewerPause.statusCode()).isEqualTo(403);
        assertThat(viewerPause.body()).contains("the caller lacks the role OPS (jobguard.actuator.write-role)");
        HttpResponse<String> viewerRelease = send(job, "DELETE", "viewer:viewer-secret", null);
        assertThat(viewerRelease.statusCode()).isEqualTo(403);
        assertThat(viewerRelease.body()).contains("lacks the role OPS");
        HttpResponse<String> viewerRead = send(job, "GET", "viewer:viewer-secret", null);
        assertThat(viewerRead.statusCode()).as("reading needs no role").isEqualTo(200);
        assertThat(viewerRead.body()).contains("\"paused\":null");

        HttpResponse<String> opsPause = send(job, "POST", "ops:ops-secret", "pause");
        assertThat(opsPause.statusCode()).as(opsPause.body()).isEqualTo(200);
        assertThat(opsPause.body()).contains("\"changed\":true");
        assertThat(send(job, "GET", "viewer:viewer-secret", null).body())
                .as("the pause flag names the Spring Security principal")
                .contains("\"node\":\"secured-node\"", "\"by\":\"ops\"");
        await().atMost(Duration.ofSeconds(20)).until(() -> send(job, "GET", "ops:ops-secret", null).body()
                .contains("\"outcome\":\"PAUSED\""));
        HttpResponse<String> opsResume = send(job, "POST", "ops:ops-secret", "resume");
        assertThat(opsResume.statusCode()).as(opsResume.body()).isEqualTo(200);
        assertThat(send(job, "GET", "ops:ops-secret", null).body()).contains("\"paused\":null");

        // the samples in docs/operations.md ("Operating job-guard"): the live output must have the committed shape
        await().atMost(Duration.ofSeconds(20)).until(() -> JSON.readTree(send(job, "GET", "ops:ops-secret", null)
                .body()).path("recentFires").path(0).path("outcome").asString().equals("RAN"));
        JsonNode detail = JSON.readTree(send(job, "GET", "ops:ops-secret", null).body());
        JsonNode health = JSON.readTree(send(base + "/actuator/health/jobguard", "GET", "ops:ops-secret", null).body());
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.path("details").path("store").asString()).isEqualTo("reachable");
        assertSample(detail, "job-detail.json");
        assertSample(health, "health.json");
    }

    /**
     * Writes the live output to {@code target/samples} (copy it to {@code samples/} to refresh docs/operations.md)
     * and checks that the committed sample has the same fields, so docs/operations.md cannot drift from the code.
     */
    private static void assertSample(JsonNode live, String name) throws IOException {
        Path written = Path.of("target/samples", name);
        Files.createDirectories(written.getParent());
        Files.writeString(written, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(live) + "\n");
        JsonNode committed = JSON.readTree(Files.readString(Path.of("samples", name)));
        assertThat(shape(committed)).as("fields of samples/%s (live output in %s)", name, written)
                .isEqualTo(shape(live));
    }

    /** Field paths of a JSON tree; arrays by their first element. */
    private static Set<String> shape(JsonNode node) {
        Set<String> paths = new TreeSet<>();
        shape(node, "", paths);
        return paths;
    }

    private static void shape(JsonNode node, String path, Set<String> paths) {
        if (node.isObject()) {
            for (String field : node.propertyNames()) {
                paths.add(path + "." + field);
                shape(node.get(field), path + "." + field, paths);
            }
        } else if (node.isArray() && !node.isEmpty()) {
            shape(node.get(0), path + "[]", paths);
        }
    }

    private HttpResponse<String> send(String url, String method, String credentials, String action)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).method(method,
                action == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{\"action\":\"" + action + "\"}"));
        if (action != null) {
            request.header("Content-Type", "application/json");
        }
        if (credentials != null) {
            request.header("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
