package io.jobguard.spring.boot3;

import io.jobguard.ClusterSingleton;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.lettuce.core.resource.ClientResources;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot 3.5 application with the Quickstart's setup (web, actuator, data-redis, one guarded
 * {@code @Scheduled} method) starts, runs its guarded job, reports the {@code jobguard} health indicator with the
 * same details as on Boot 4, and gets job-guard's reconnect backoff on Boot's Lettuce client; its startup says nothing
 * is missing ({@link WithoutThisModuleIT}: without this module it does). The integration tests
 * of job-guard-spring and job-guard-quartz run on this line too (module compatibility/boot-3.5).
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class Boot3ApplicationIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void startsRunsItsGuardedJobAndReportsHealth(RedisServerProcess redis, CapturedOutput output) throws Exception {
        assertThat(SpringBootVersion.getVersion()).as("the Boot line under test").startsWith("3.5.");
        App.RUNS.set(0);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.SERVLET)
                .properties("server.port=0", "spring.data.redis.host=" + redis.host(),
                        "spring.data.redis.port=" + redis.port(), "jobguard.node-id=boot3-node",
                        "jobguard.namespace=boot3", "jobguard.redis.reconnect-delay-max=300ms",
                        "management.endpoints.web.exposure.include=health,jobguard",
                        "management.endpoint.health.show-details=always", "management.health.redis.enabled=false")
                .run()) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> App.RUNS.get() >= 2);

            String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
            HttpResponse<String> health = get(base + "/actuator/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(health.body()).as("the jobguard indicator, with the store reached")
                    .contains("\"jobguard\":{\"status\":\"UP\"").contains("\"store\":\"reachable\"")
                    .contains("\"node\":\"boot3-node\"");
            HttpResponse<String> endpoint = get(base + "/actuator/jobguard");
            assertThat(endpoint.statusCode()).as(endpoint.body()).isEqualTo(200);
            assertThat(endpoint.body()).contains("\"name\":\"boot3-tick\"");

            Duration attempt = app.getBean(ClientResources.class).reconnectDelay().createDelay(30);
            assertThat(attempt).as("the 30th reconnect attempt waits at most jobguard.redis.reconnect-delay-max")
                    .isLessThanOrEqualTo(Duration.ofMillis(300)).isPositive();
            assertThat(output.getAll()).as("the startup report, with this module present")
                    .contains("job-guard on:").doesNotContain("without job-guard-spring-boot3");
        }
    }

    @Test
    void anUnhealthyStatusOfUpIsRefusedAtStartup(RedisServerProcess redis) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                        "jobguard.actuator.unhealthy-status=up");
        org.assertj.core.api.Assertions.assertThatThrownBy(app::run).rootCause()
                .hasMessageContaining("jobguard.actuator.unhealthy-status must name a status other than UP");
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The Quickstart's shape: one guarded job, every second. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class App {

        static final AtomicInteger RUNS = new AtomicInteger();

        @Bean
        Tick tick() {
            return new Tick();
        }
    }

    /** The guarded job. */
    static class Tick {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "boot3-tick", lease = "30s")
        public void run() {
            App.RUNS.incrementAndGet();
        }
    }
}
