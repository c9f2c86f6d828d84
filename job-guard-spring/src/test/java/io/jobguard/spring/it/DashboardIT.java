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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard page's serving rules over real HTTP (the page itself is driven in a real browser by
 * {@code examples/dashboard}'s {@code DashboardBrowserIT}): off by default, and absent (the app still starts) while
 * the endpoint is not exposed; with
 * {@code jobguard.actuator.dashboard-enabled=true} its three files are served under the endpoint's path with
 * their content types in servlet and WebFlux apps, nothing else is; the node report it reads lists this node
 * and says that a read-only endpoint allows no writes.
 */
@WithRedis
class DashboardIT {

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
    void servletAppServesThePageOnlyWhenEnabled(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext off = start(redis, WebApplicationType.SERVLET, "off-node")) {
            assertThat(send(page(off, "index.html")).statusCode()).as("off by default").isEqualTo(404);
        }
        WebApp.reset();
        try (ConfigurableApplicationContext hidden = start(redis, WebApplicationType.SERVLET, "hidden-node",
                "jobguard.actuator.dashboard-enabled=true", "management.endpoints.web.exposure.include=health")) {
            assertThat(send(page(hidden, "index.html")).statusCode()).as("on, but the endpoint is not exposed")
                    .isEqualTo(404);
        }
        WebApp.reset();
        try (ConfigurableApplicationContext app = start(redis, WebApplicationType.SERVLET, "on-node",
                "jobguard.actuator.dashboard-enabled=true")) {
            HttpResponse<String> index = send(page(app, "index.html"));
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(index.body()).contains("<script src=\"dashboard.js\">", "dashboard.css");
            HttpResponse<String> script = send(page(app, "dashboard.js"));
            assertThat(script.statusCode()).isEqualTo(200);
            assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
            assertThat(script.body()).contains("new URL('../../jobguard'");
            assertThat(script.body()).as("outcomes in words (DashboardBrowserIT sees them rendered)")
                    .contains("'ran on '", "'skipped: already ran on '", "'another node'", "'skipped: the job was paused'",
                            "'paused: will not run'", "'left to '", "'asks: '");
            assertThat(send(page(app, "dashboard.css")).headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
            assertThat(send(page(app, "secret.properties")).statusCode()).as("only the page's files").isEqualTo(404);
            assertThat(send(base(app) + "/actuator/jobguard/other/index.html").statusCode()).isEqualTo(404);

            assertThat(WebApp.started.await(10, TimeUnit.SECONDS)).isTrue();
            JsonNode report = JSON.readTree(send(base(app) + "/actuator/jobguard").body());
            assertThat(report.path("nodes").get(0).path("node").asText()).isEqualTo("on-node");
            assertThat(report.path("nodes").get(0).path("self").asBoolean()).isTrue();
            assertThat(report.path("writes").path("control").asBoolean()).as("read-only endpoint: no buttons").isFalse();
            assertThat(report.path("writes").path("forceRelease").asBoolean()).isFalse();
        }
    }

    @Test
    void webFluxAppServesThePage(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = start(redis, WebApplicationType.REACTIVE, "flux-node",
                "jobguard.actuator.dashboard-enabled=true", "management.endpoint.jobguard.access=unrestricted",
                "jobguard.actuator.write-enabled=true")) {
            HttpResponse<String> index = send(page(app, "index.html"));
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(index.body()).contains("<script src=\"dashboard.js\">");
            assertThat(send(page(app, "dashboard.js")).headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
            JsonNode report = JSON.readTree(send(base(app) + "/actuator/jobguard").body());
            assertThat(report.path("writes").path("control").asBoolean()).as("writes enabled and mapped").isTrue();
            assertThat(report.path("writes").path("forceRelease").asBoolean()).as("force-release still off").isFalse();
        }
    }

    private static ConfigurableApplicationContext start(RedisServerProcess redis, WebApplicationType type, String node,
                                                        String... props) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "jobguard.node-id=" + node,
                "jobguard.namespace=dash", "management.endpoints.web.exposure.include=jobguard"));
        all.addAll(List.of(props));
        ConfigurableApplicationContext app = Nodes.context(redis, WebApp.class, type, all);
        app.addApplicationListener((org.springframework.context.ApplicationListener<
                org.springframework.context.event.ContextClosedEvent>) e -> WebApp.release.countDown());
        return app;
    }

    private static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    private static String page(ConfigurableApplicationContext app, String file) {
        return base(app) + "/actuator/jobguard/dashboard/" + file;
    }

    private HttpResponse<String> send(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
