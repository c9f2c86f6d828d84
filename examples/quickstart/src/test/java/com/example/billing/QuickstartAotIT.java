package com.example.billing;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Quickstart app as Spring AOT processed it in this build ({@code process-aot}, bound in the POM), started with
 * {@code -Dspring.aot.enabled=true} against a real Redis, runs in AOT mode exactly as on the plain JVM: Boot says it
 * started the AOT-processed application, the guarded job runs under job-guard, {@code /actuator/health} is UP with
 * the {@code jobguard} component UP, and {@code /actuator/jobguard} answers with the job, its last outcome and its
 * recent fire times (the records job-guard's hints make serializable in a native image). The metadata the processing
 * wrote for a native image holds job-guard's hints and the guarded bean's CGLIB proxy class, generated at build time.
 * Built and run on Spring Boot 4.1 here and on 3.5 by examples/quickstart-boot3, from these same sources.
 */
@WithRedis
class QuickstartAotIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Process app;

    @AfterEach
    void stop() throws InterruptedException {
        if (app != null) {
            app.destroy();
            if (!app.waitFor(20, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
    }

    @Test
    void theAotProcessedAppRunsTheGuardedJobAndAnswersHealthAndTheEndpoint(RedisServerProcess redis) throws IOException {
        // process-aot compiles the generated context initializer into target/classes, next to the app
        assertThat(BillingApplication.class.getResource("BillingApplication__ApplicationContextInitializer.class"))
                .as("the AOT-generated initializer on the class path (process-aot ran)").isNotNull();
        // the metadata a native image would be built from holds job-guard's hints (its aot.factories were found) and
        // the guarded bean's CGLIB proxy class, generated at build time
        String metadata;
        try (Stream<Path> files = Files.walk(Path.of("target", "spring-aot", "main", "resources", "META-INF",
                "native-image"))) {
            Path file = files.filter(f -> f.getFileName().toString().equals("reachability-metadata.json")).findFirst()
                    .orElseThrow(() -> new AssertionError("no reachability-metadata.json from process-aot"));
            metadata = Files.readString(file, StandardCharsets.UTF_8).replace("\\/", "/");
        }
        assertThat(metadata).as("job-guard's hints in the build's metadata").contains("\"io/jobguard/redis/*.lua\"",
                "\"io/jobguard/fencing/*.sql\"", "\"io/jobguard/spring/dashboard/*\"",
                "\"io.jobguard.spring.actuator.JobGuardEndpoint$NodeReport\"", "\"io.jobguard.ClusterSingleton\"",
                "\"com.example.billing.InvoiceJob$$SpringCGLIB$$0\"");
        int port = freePort();
        Path log = Files.createTempFile("jobguard-quickstart-aot", ".log");
        app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dspring.aot.enabled=true", "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), BillingApplication.class.getName(),
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--server.port=" + port, "--jobguard.node-id=aot-1", "--billing.invoice-cron=* * * * * *",
                "--management.endpoint.health.show-details=always",
                // the test classpath carries the harness's logback-test.xml (root at WARN): Boot's default INFO back
                "--logging.level.root=INFO")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            assertThat(app.isAlive()).as("app alive; log:%n%s", read(log)).isTrue();
            assertThat(read(log)).as("AOT mode, job-guard on, and a guarded run")
                    .contains("Starting AOT-processed BillingApplication",
                            "job-guard on: store RedisLeaseStore[Redis " + redis.host() + ":" + redis.port(),
                            "sending invoices for fire time");
        });
        String base = "http://localhost:" + port + "/actuator";
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            String health = get(base + "/health");
            String jobguard = object(health, "jobguard");
            assertThat(jobguard).as("the jobguard component of %s", health)
                    .contains("\"status\":\"UP\"", "\"node\":\"aot-1\"", "\"store\":\"reachable\"");
            assertThat(health.replace(object(health, "components"), "{}")).as("the overall status of %s", health)
                    .contains("\"status\":\"UP\"");
            assertThat(get(base + "/jobguard")).as("the endpoint's report")
                    .contains("\"node\":\"aot-1\"", "\"namespace\":\"billing\"", "\"name\":\"invoices\"",
                            "\"lastOutcome\":\"RAN\"");
            assertThat(get(base + "/jobguard/invoices")).as("the job's detail")
                    .contains("\"recentFires\":[{", "\"node\":\"aot-1\"", "\"outcome\":\"RAN\"");
        });
    }

    private static String get(String uri) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(uri))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", uri, response.body()).isEqualTo(200);
        return response.body();
    }

    /** The JSON object that is the value of the first property named {@code name} (Jackson 2 and 3 order differ). */
    private static String object(String json, String name) {
        int start = json.indexOf("\"" + name + "\":{");
        assertThat(start).as("\"%s\" in %s", name, json).isNotNegative();
        start = json.indexOf('{', start);
        int depth = 0;
        for (int i = start; i < json.length(); i++) {
            char c = json.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                return json.substring(start, i + 1);
            }
        }
        throw new AssertionError("unbalanced JSON: " + json);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
