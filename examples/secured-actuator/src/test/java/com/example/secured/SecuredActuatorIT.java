package com.example.secured;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17: the endpoint's writes behind real Spring Security (HTTP Basic, in-memory users, Boot's
 * {@code EndpointRequest} matcher) over real HTTP on a real Redis. A caller lacking
 * {@code jobguard.actuator.write-role} is refused with 403 and a body naming the role and the
 * property, for POST and DELETE; an anonymous caller never reaches the endpoint (401); the caller with
 * the role pauses and resumes the job, and the pause flag records its Spring Security principal.
 */
@WithRedis
class SecuredActuatorIT {

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
        String job = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
                + "/actuator/jobguard/report";

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
        HttpResponse<String> opsResume = send(job, "POST", "ops:ops-secret", "resume");
        assertThat(opsResume.statusCode()).as(opsResume.body()).isEqualTo(200);
        assertThat(send(job, "GET", "ops:ops-secret", null).body()).contains("\"paused\":null");
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
