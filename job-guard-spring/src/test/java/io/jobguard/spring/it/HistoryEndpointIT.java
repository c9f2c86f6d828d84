package io.jobguard.spring.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's run history over real HTTP, on a history written in the release's entry format: a page answers
 * every field of an entry (a failure's class and message line included) and its cursor walks all pages once; filters by
 * time range, outcome and node; CSV and NDJSON exports hold one line per matching entry, in servlet and WebFlux apps;
 * a bad filter is HTTP 400 naming it; and the history is hidden with the endpoint (not exposed: 404).
 */
@WithRedis
class HistoryEndpointIT {

    private static final Json JSON = new Json();
    private static final String KEY = "jobguard:{hist:nightly}:history";
    private static final long BASE = Instant.parse("2026-11-03T00:00:00Z").toEpochMilli();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void reset(RedisServerProcess redis) {
        WebApp.reset();
        redis.flushAll();
        // 48 hourly fire times (2 days) of job 'nightly', oldest pushed first; every 6th failed on node-b
        for (int i = 0; i < 48; i++) {
            long t = BASE + i * 3_600_000L;
            String lease = "jg1|tok-" + i + "|" + t + "|" + (t + 40) + "|" + (i + 1) + "|" + (i % 6 == 0 ? "node-b" : "node-a");
            redis.call("LPUSH", KEY, i % 6 == 0 ? "f1|FAILED|1200|java.io.IOException|disk full%7C 100%25|" + lease
                    : "o|RAN|800|" + lease);
        }
        redis.call("LPUSH", KEY, "n|MISSED|" + (BASE + 48 * 3_600_000L) + "|" + (BASE + 48 * 3_600_000L + 5) + "|node-a");
    }

    @AfterEach
    void releaseJob() {
        WebApp.release.countDown();
    }

    @Test
    void pagesFiltersAndExportsTheHistory(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = start(redis, WebApplicationType.SERVLET, "history-node")) {
            JsonNode first = json(send(history(app, "json?limit=2")));
            assertThat(first.path("job").asText()).isEqualTo("nightly");
            assertThat(first.path("entries")).hasSize(2);
            JsonNode missed = first.path("entries").get(0);
            assertThat(missed.path("outcome").asText()).isEqualTo("MISSED");
            assertThat(missed.path("start").isNull()).isTrue();
            assertThat(missed.path("fencingToken").isNull()).isTrue();
            JsonNode ran = first.path("entries").get(1);
            assertThat(ran.path("fireTime").asText()).isEqualTo(Instant.ofEpochMilli(BASE + 47 * 3_600_000L).toString());
            assertThat(ran.path("outcome").asText()).isEqualTo("RAN");
            assertThat(ran.path("attempt").asInt()).isEqualTo(1);
            assertThat(ran.path("node").asText()).isEqualTo("node-a");
            assertThat(ran.path("start").asText()).isEqualTo(Instant.ofEpochMilli(BASE + 47 * 3_600_000L + 40).toString());
            assertThat(ran.path("end").asText()).isEqualTo(Instant.ofEpochMilli(BASE + 47 * 3_600_000L + 840).toString());
            assertThat(ran.path("durationMs").asLong()).isEqualTo(800);
            assertThat(ran.path("fencingToken").asLong()).isEqualTo(48);

            Set<Long> tokens = new HashSet<>();
            String cursor = null;
            int pages = 0;
            do {
                JsonNode page = json(send(history(app, "json?limit=7" + (cursor == null ? "" : "&cursor=" + cursor))));
                page.path("entries").forEach(e -> tokens.add(e.path("fencingToken").asLong(-1)));
                cursor = page.path("next").isNull() ? null : page.path("next").asText();
                pages++;
            } while (cursor != null);
            assertThat(pages).isEqualTo(7);
            assertThat(tokens).hasSize(49);

            JsonNode failed = json(send(history(app, "json?outcome=failed&node=node-b&from=2026-11-04&to="
                    + Instant.ofEpochMilli(BASE + 43 * 3_600_000L))));
            // fire times 24h..42h: failures at 24, 30, 36, 42
            assertThat(failed.path("entries")).hasSize(4);
            assertThat(failed.path("entries").get(0).path("failureClass").asText()).isEqualTo("java.io.IOException");
            assertThat(failed.path("entries").get(0).path("failureMessage").asText()).isEqualTo("disk full| 100%");
            assertThat(failed.path("next").isNull()).isTrue();

            HttpResponse<String> csv = send(history(app, "csv"));
            assertThat(csv.statusCode()).isEqualTo(200);
            assertThat(csv.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
            List<String> lines = csv.body().lines().toList();
            assertThat(lines).hasSize(50);
            assertThat(lines.get(0)).isEqualTo("job,fireTime,outcome,attempt,node,start,end,durationMs,fencingToken,"
                    + "failureClass,failureMessage");
            assertThat(lines.get(lines.size() - 1)).isEqualTo("nightly," + Instant.ofEpochMilli(BASE) + ",FAILED,1,node-b,"
                    + Instant.ofEpochMilli(BASE + 40) + "," + Instant.ofEpochMilli(BASE + 1240) + ",1200,1,"
                    + "java.io.IOException,disk full| 100%");
            HttpResponse<String> ndjson = send(history(app, "ndjson?outcome=FAILED"));
            assertThat(ndjson.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/x-ndjson"));
            assertThat(ndjson.body().lines().toList()).hasSize(8).allSatisfy(line -> assertThat(json(line)
                    .path("outcome").asText()).isEqualTo("FAILED"));

            HttpResponse<String> bad = send(history(app, "json?from=yesterday"));
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("from must be an ISO-8601 instant");
            assertThat(send(history(app, "json?cursor=nonsense")).statusCode()).isEqualTo(400);
            assertThat(send(history(app, "xml")).statusCode()).isEqualTo(400);
            assertThat(send(base(app) + "/actuator/jobguard/nightly/other/json").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void webFluxExportsAndAnUnexposedEndpointHidesTheHistory(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = start(redis, WebApplicationType.REACTIVE, "flux-history")) {
            HttpResponse<String> csv = send(history(app, "csv?node=node-b"));
            assertThat(csv.statusCode()).isEqualTo(200);
            assertThat(csv.body().lines().toList()).hasSize(9);
            assertThat(json(send(history(app, "json?limit=1"))).path("entries")).hasSize(1);
        }
        WebApp.reset();
        try (ConfigurableApplicationContext hidden = start(redis, WebApplicationType.SERVLET, "hidden-history",
                "management.endpoints.web.exposure.include=health")) {
            assertThat(send(history(hidden, "json")).statusCode()).isEqualTo(404);
            assertThat(send(history(hidden, "csv")).statusCode()).isEqualTo(404);
        }
    }

    private static ConfigurableApplicationContext start(RedisServerProcess redis, WebApplicationType type, String node,
                                                        String... props) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "jobguard.node-id=" + node,
                "jobguard.namespace=hist", "management.endpoints.web.exposure.include=jobguard"));
        all.addAll(List.of(props));
        ConfigurableApplicationContext app = Nodes.context(redis, WebApp.class, type, all);
        app.addApplicationListener((org.springframework.context.ApplicationListener<
                org.springframework.context.event.ContextClosedEvent>) e -> WebApp.release.countDown());
        return app;
    }

    private static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    private static String history(ConfigurableApplicationContext app, String formatAndQuery) {
        return base(app) + "/actuator/jobguard/nightly/history/" + formatAndQuery;
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertThat(response.statusCode()).as("%s", response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static JsonNode json(String body) {
        return JSON.readTree(body);
    }

    private HttpResponse<String> send(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
