package io.jobguard.spring.it;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux app over real HTTP: while the {@code jobguard} endpoint is read-only, {@code POST} and
 * {@code DELETE} on a job answer 405 with a body naming the settings to set, as in servlet apps
 * ({@code ActuatorIT}); reads still work and other paths keep WebFlux's own answer.
 */
@WithRedis
class ReactiveActuatorIT {

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
    void writesOnTheReadOnlyEndpointNameTheSettingsTheyNeed(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = Nodes.context(redis, WebApp.class, WebApplicationType.REACTIVE,
                List.of("server.port=0", "jobguard.node-id=flux-node", "jobguard.namespace=flux",
                        "management.endpoints.web.exposure.include=jobguard"))) {
            assertThat(WebApp.started.await(10, TimeUnit.SECONDS)).isTrue();
            String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
                    + "/actuator/jobguard";

            HttpResponse<String> post = send(base + "/held", "POST");
            System.out.println("sample WebFlux POST on the read-only endpoint: " + post.statusCode() + " " + post.body());
            assertThat(post.statusCode()).as(post.body()).isEqualTo(405);
            JsonNode postBody = JSON.readTree(post.body());
            assertThat(postBody.path("job").asText()).isEqualTo("held");
            assertThat(postBody.path("message").asText())
                    .contains("management.endpoint.jobguard.access=unrestricted", "jobguard.actuator.write-enabled=true");

            HttpResponse<String> delete = send(base + "/held", "DELETE");
            assertThat(delete.statusCode()).as(delete.body()).isEqualTo(405);
            assertThat(JSON.readTree(delete.body()).path("message").asText())
                    .contains("management.endpoint.jobguard.access=unrestricted",
                            "jobguard.actuator.force-release-enabled=true");

            HttpResponse<String> read = send(base + "/held", "GET");
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(read.body()).path("runLease").path("holder").asText())
                    .as("the refused writes changed nothing").isEqualTo("flux-node");
            assertThat(send(base, "DELETE").body()).as("another path keeps WebFlux's answer")
                    .doesNotContain("force-release");
        }
    }

    private HttpResponse<String> send(String url, String method) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (method.equals("POST")) {
            request.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"pause\"}"));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
