package com.example.observability;

import io.jobguard.JobGuard;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Grafana dashboard and the Prometheus alert rules cannot drift from the meters: an application with the
 * Prometheus registry runs guarded jobs on a real Redis (one run loses its lease to a force-release, so the
 * lease-lost counter exists), {@code /actuator/prometheus} is scraped, and every metric name and every label name
 * that a PromQL expression of {@code grafana/jobguard-dashboard.json} or {@code prometheus/jobguard-alerts.yml}
 * uses (selectors, {@code by}/{@code on} clauses, {@code label_values}) must be exposed, on that metric.
 */
@WithRedis
class ObservabilityIT {

    private static final Path DASHBOARD = Path.of("grafana", "jobguard-dashboard.json");
    private static final Path RULES = Path.of("prometheus", "jobguard-alerts.yml");
    /** Labels Prometheus adds to every scraped series. */
    private static final Set<String> TARGET_LABELS = Set.of("instance");
    private static final Pattern METRIC = Pattern.compile("\\bjobguard_[a-zA-Z0-9_]+");
    private static final Pattern SELECTOR = Pattern.compile("(jobguard_[a-zA-Z0-9_]+)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring)\\s*\\(([^)]*)\\)");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*(jobguard_[a-zA-Z0-9_]+)[^,]*,\\s*([a-zA-Z_]+)\\s*\\)");
    private static final Pattern SAMPLE_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");

    private ConfigurableApplicationContext app;

    @AfterEach
    void close() {
        CountDownLatch hold = ObservabilityApplication.Jobs.hold;
        if (hold != null) {
            hold.countDown();
        }
        ObservabilityApplication.Jobs.hold = null;
        if (app != null) {
            app.close();
        }
    }

    @Test
    void everyMetricAndLabelOfTheDashboardAndTheRulesIsExposed(RedisServerProcess redis) throws Exception {
        app = new SpringApplicationBuilder(ObservabilityApplication.class).run(
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--server.port=0", "--server.address=127.0.0.1", "--jobguard.node-id=obs-node",
                "--jobguard.namespace=obs", "--spring.main.banner-mode=off", "--logging.level.root=WARN");
        String scrapeUrl = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
                + "/actuator/prometheus";

        // a run that loses its lease: held in its body while an operator force-releases it
        ObservabilityApplication.Jobs.holding = new CountDownLatch(1);
        ObservabilityApplication.Jobs.hold = new CountDownLatch(1);
        assertThat(ObservabilityApplication.Jobs.holding.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(app.getBean(JobGuard.class).forceRelease("export")).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> scrape(scrapeUrl).containsKey("jobguard_lease_lost_total"));
        ObservabilityApplication.Jobs.hold.countDown();
        ObservabilityApplication.Jobs.hold = null;
        await().atMost(Duration.ofSeconds(10)).until(() -> scrape(scrapeUrl).keySet().containsAll(Set.of(
                "jobguard_job_runs_total", "jobguard_job_last_run_seconds", "jobguard_job_duration_seconds_max")));
        Map<String, Set<String>> exposed = scrape(scrapeUrl);
        double lastSync = sample(scrapeUrl, "jobguard_job_last_run_seconds", "job=\"sync\"");
        assertThat(lastSync % 1).as("a whole-second cron fire time").isZero();
        assertThat(lastSync).as("the newest ended run of sync, a second job every second")
                .isBetween(System.currentTimeMillis() / 1e3 - 5, System.currentTimeMillis() / 1e3);

        List<String> dashboardExprs = dashboardExpressions();
        List<String> ruleExprs = ruleExpressions();
        assertThat(dashboardExprs).as("dashboard PromQL").hasSizeGreaterThanOrEqualTo(10);
        assertThat(ruleExprs).as("alert rules").hasSizeGreaterThanOrEqualTo(5);
        List<String> problems = new ArrayList<>();
        for (String expr : concat(dashboardExprs, ruleExprs)) {
            problems.addAll(check(expr, exposed));
        }
        assertThat(problems).as("metrics or labels used but not exposed (exposed: %s)", exposed).isEmpty();
        assertThat(check("sum by (job) (jobguard_no_such_meter{namespace=\"x\"})", exposed))
                .as("the check itself finds a drift").isNotEmpty();
        assertThat(check("sum by (pod) (jobguard_job_runs_total{fire_time=\"x\"})", exposed)).hasSize(2);
    }

    /** What in the expression is not exposed: unknown metrics, and labels a metric or the expression's metrics lack. */
    private static List<String> check(String expr, Map<String, Set<String>> exposed) {
        List<String> problems = new ArrayList<>();
        Set<String> labelsOfExpr = new TreeSet<>(TARGET_LABELS);
        Matcher metrics = METRIC.matcher(expr);
        while (metrics.find()) {
            Set<String> labels = exposed.get(metrics.group());
            if (labels == null) {
                problems.add("metric " + metrics.group() + " in: " + expr);
            } else {
                labelsOfExpr.addAll(labels);
            }
        }
        Matcher selectors = SELECTOR.matcher(expr);
        while (selectors.find()) {
            Set<String> labels = exposed.getOrDefault(selectors.group(1), Set.of());
            Matcher matchers = MATCHER.matcher(selectors.group(2));
            while (matchers.find()) {
                if (!labels.contains(matchers.group(1))) {
                    problems.add("label " + matchers.group(1) + " of " + selectors.group(1) + " in: " + expr);
                }
            }
        }
        Matcher groupings = GROUPING.matcher(expr);
        while (groupings.find()) {
            for (String label : groupings.group(2).split(",")) {
                if (!label.isBlank() && !labelsOfExpr.contains(label.trim())) {
                    problems.add("label " + label.trim() + " in " + groupings.group(1) + "(...) of: " + expr);
                }
            }
        }
        Matcher values = LABEL_VALUES.matcher(expr);
        while (values.find()) {
            if (!exposed.getOrDefault(values.group(1), Set.of()).contains(values.group(2))) {
                problems.add("label_values label " + values.group(2) + " of " + values.group(1));
            }
        }
        return problems;
    }

    /** Every PromQL expression of the dashboard: the panels' targets and the template variables' queries. */
    static List<String> dashboardExpressions() throws Exception {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        List<String> exprs = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                exprs.add(target.path("expr").asString());
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            exprs.add(variable.path("query").asString());
        }
        return exprs;
    }

    @SuppressWarnings("unchecked")
    private static List<String> ruleExpressions() throws Exception {
        try (Reader reader = Files.newBufferedReader(RULES)) {
            Map<String, Object> rules = new Yaml().load(reader);
            List<String> exprs = new ArrayList<>();
            for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
                for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                    exprs.add(String.valueOf(rule.get("expr")));
                }
            }
            return exprs;
        }
    }

    /** The scrape as metric name to its label names (Prometheus text format). */
    private static Map<String, Set<String>> scrape(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, Set<String>> out = new TreeMap<>();
        for (String line : response.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
            Set<String> labels = out.computeIfAbsent(name, n -> new TreeSet<>());
            if (brace >= 0 && brace < space) {
                Matcher m = SAMPLE_LABEL.matcher(line.substring(brace, line.lastIndexOf('}') + 1));
                while (m.find()) {
                    labels.add(m.group(1));
                }
            }
        }
        return out;
    }

    /** The value of the first sample of the metric whose labels contain {@code label}. */
    private static double sample(String url, String metric, String label) throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : body.split("\n")) {
            if (line.startsWith(metric + "{") && line.contains(label)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no sample of " + metric + " with " + label + " in:\n" + body);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
