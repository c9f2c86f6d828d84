package com.example.observability;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus ({@code /usr/bin/prometheus}, Debian's package {@code prometheus}) scrapes a running
 * {@link ObservabilityApplication} on a real Redis, with the shipped scrape config and alert rules: every rule
 * evaluates without error and none fires while the application is healthy, every PromQL expression of the Grafana
 * dashboard returns data through Prometheus' query API, and stopping Redis makes {@code JobGuardStoreErrors} fire in
 * Prometheus' own {@code /api/v1/alerts}.
 *
 * <p>What this test changes in the shipped files, in copies: the scrape target (the application's port), the scrape
 * and evaluation intervals (1 s instead of Prometheus' default 1 min) and each rule's {@code for} (3 s), so that it
 * takes seconds; the expressions are the shipped ones. Without {@code prometheus} it fails naming the package.
 */
@WithRedis
class PrometheusIT {

    private static final Path CONFIG = Path.of("prometheus", "prometheus.yml");
    private static final Path RULES = Path.of("prometheus", "jobguard-alerts.yml");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;
    private ConfigurableApplicationContext app;
    private Process prometheus;

    @AfterEach
    void stop() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly().waitFor();
            }
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void prometheusEvaluatesTheShippedRulesAndTheDashboardOnARunningApplication(RedisServerProcess redis)
            throws Exception {
        Path binary = PrometheusBinaries.require("prometheus");
        app = new SpringApplicationBuilder(ObservabilityApplication.class).run(
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--spring.data.redis.timeout=1s", "--server.port=0", "--server.address=127.0.0.1",
                "--jobguard.node-id=prom-node", "--jobguard.namespace=obs", "--spring.main.banner-mode=off",
                "--logging.level.root=WARN");
        String target = "127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        String base = startPrometheus(binary, target);

        // the target is scraped and the meters arrive
        await().atMost(Duration.ofSeconds(30)).until(() -> !query(base, "jobguard_job_period_seconds{namespace=\"obs\"}")
                .isEmpty() && !query(base, "up{job=\"jobguard-apps\"} == 1").isEmpty());

        // every rule evaluates without error, and none fires or is pending on a healthy application
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode groups = get(base + "/api/v1/rules").path("data").path("groups");
            List<String> rules = new ArrayList<>();
            for (JsonNode rule : groups.get(0).path("rules")) {
                assertThat(rule.path("health").asString()).as(rule.toString()).isEqualTo("ok");
                rules.add(rule.path("name").asString());
            }
            assertThat(rules).hasSize(7);
        });
        assertThat(get(base + "/api/v1/alerts").path("data").path("alerts")).as("alerts of a healthy application")
                .isEmpty();

        // every PromQL expression of the dashboard, with Grafana's variables filled in as Grafana would, has data
        List<String> expressions = ObservabilityIT.dashboardExpressions();
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(13);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (String expression : expressions) {
                String promql = promql(expression);
                assertThat(query(base, promql)).as("result of %s", promql).isNotEmpty();
            }
        });

        System.out.println("PrometheusIT: " + expressions.size() + " dashboard expressions returned data");

        // Redis goes away: every firing is a STORE_ERROR, and Prometheus fires JobGuardStoreErrors for both jobs
        redis.stop();
        long stopped = System.nanoTime();
        await().atMost(Duration.ofSeconds(45)).untilAsserted(() -> {
            List<String> firing = new ArrayList<>();
            for (JsonNode alert : get(base + "/api/v1/alerts").path("data").path("alerts")) {
                JsonNode labels = alert.path("labels");
                if (alert.path("state").asString().equals("firing")
                        && labels.path("alertname").asString().equals("JobGuardStoreErrors")) {
                    assertThat(labels.path("namespace").asString()).isEqualTo("obs");
                    assertThat(labels.path("severity").asString()).isEqualTo("page");
                    assertThat(alert.path("annotations").path("summary").asString())
                            .endsWith("(obs): firings skipped, Redis unreachable");
                    firing.add(labels.path("job").asString());
                }
            }
            assertThat(firing).containsExactlyInAnyOrder("export", "sync");
        });
        System.out.printf("PrometheusIT: JobGuardStoreErrors firing for both jobs %.1f s after Redis stopped%n",
                (System.nanoTime() - stopped) / 1e9);
    }

    /**
     * A dashboard expression as Grafana sends it with the variables at "All" over this application: the variable
     * queries ({@code label_values(metric, label)}, Grafana's, not PromQL) become {@code count by (label) (metric)}.
     */
    private static String promql(String expression) {
        String e = expression.replace("$namespace", "obs").replace("$job", ".+")
                .replace("$__rate_interval", "15s").replace("$__range", "5m");
        if (e.startsWith("label_values(")) {
            String args = e.substring("label_values(".length(), e.length() - 1);
            int comma = args.lastIndexOf(',');
            return "count by (" + args.substring(comma + 1).trim() + ") (" + args.substring(0, comma).trim() + ")";
        }
        return e;
    }

    /** Starts Prometheus on a free loopback port with copies of the shipped files; its base URL once it is ready. */
    private String startPrometheus(Path binary, String target) throws Exception {
        Path rules = dir.resolve("jobguard-alerts.yml");
        Files.writeString(rules, yaml().dump(fastRules()));
        Map<String, Object> config = load(CONFIG);
        assertThat(config.get("rule_files")).isEqualTo(List.of("jobguard-alerts.yml"));
        config.put("global", Map.of("scrape_interval", "1s", "evaluation_interval", "1s"));
        config.put("rule_files", List.of(rules.toString()));
        Map<String, Object> scrape = list(config.get("scrape_configs")).get(0);
        assertThat(scrape.get("honor_labels")).isEqualTo(true);
        scrape.put("static_configs", List.of(Map.of("targets", List.of(target))));
        Path configFile = dir.resolve("prometheus.yml");
        Files.writeString(configFile, yaml().dump(config));

        Path log = dir.resolve("prometheus.log");
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            prometheus = new ProcessBuilder(binary.toString(), "--config.file=" + configFile,
                    "--storage.tsdb.path=" + dir.resolve("data-" + attempt), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            String base = "http://127.0.0.1:" + port;
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> !prometheus.isAlive() || ready(base));
            } catch (RuntimeException e) {
                throw new AssertionError("prometheus not ready in 20 s:\n" + Files.readString(log), e);
            }
            if (prometheus.isAlive()) {
                return base;
            }
            if (attempt == 3) {
                throw new AssertionError("prometheus exited (" + prometheus.exitValue() + "):\n" + Files.readString(log));
            }
        }
    }

    /** The shipped rules with each {@code for} cut to 3 s. */
    private static Map<String, Object> fastRules() throws IOException {
        Map<String, Object> rules = load(RULES);
        for (Map<String, Object> group : list(rules.get("groups"))) {
            for (Map<String, Object> rule : list(group.get("rules"))) {
                rule.computeIfPresent("for", (k, v) -> "3s");
            }
        }
        return rules;
    }

    private boolean ready(String base) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + "/-/ready")).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The result vector of an instant query. */
    private JsonNode query(String base, String promql) throws Exception {
        JsonNode answer = get(base + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        assertThat(answer.path("status").asString()).as("%s: %s", promql, answer).isEqualTo("success");
        return answer.path("data").path("result");
    }

    private JsonNode get(String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s: %s", url, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    private static Yaml yaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options);
    }

    private static Map<String, Object> load(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file)) {
            return new Yaml().load(reader);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }
}
