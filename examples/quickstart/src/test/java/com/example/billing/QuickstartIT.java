package com.example.billing;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's Quickstart app, as built, started twice as separate JVMs against one real Redis:
 * each says at startup that job-guard is on, and every fire time of the guarded job runs on exactly
 * one of them. The cron is set to every second through the app's own {@code billing.invoice-cron}
 * property so the test needs seconds, not 5-minute slots; everything else is the app as shipped
 * (its {@code application.properties} is the README's), with the Redis port on the command line.
 */
@WithRedis
class QuickstartIT {

    private static final Pattern RAN = Pattern.compile("sending invoices for fire time (\\S+)");

    private final List<Process> instances = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : instances) {
            p.destroy();
        }
        for (Process p : instances) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void twoInstancesOnOneRedisRunEachFireTimeOnce(RedisServerProcess redis) throws IOException {
        Path dir = Files.createTempDirectory("jobguard-quickstart");
        Path[] logs = {dir.resolve("instance-1.log"), dir.resolve("instance-2.log")};
        for (int i = 0; i < logs.length; i++) {
            instances.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    BillingApplication.class.getName(),
                    "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                    "--server.port=0", "--jobguard.node-id=instance-" + (i + 1),
                    "--billing.invoice-cron=* * * * * *",
                    // the test classpath carries the harness's logback-test.xml (root at WARN): restore
                    // Boot's default INFO, which the app's own "sending invoices" lines rely on
                    "--logging.level.root=INFO")
                    .redirectErrorStream(true).redirectOutput(logs[i].toFile()).start());
        }
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            for (int i = 0; i < logs.length; i++) {
                assertThat(instances.get(i).isAlive()).as("instance %d alive; log:%n%s", i + 1, read(logs[i])).isTrue();
                assertThat(read(logs[i])).as("instance %d startup line", i + 1)
                        .contains("job-guard on: store RedisLeaseStore[Redis " + redis.host() + ":" + redis.port(),
                                "namespace 'billing'", "invoices (cron \"* * * * * *\"");
            }
        });
        // The first firings of a fresh JVM are slow (connections, scripts, JIT), and Spring's cron trigger then
        // skips the fire times that passed meanwhile, on both instances alike: that is scheduling, not the guard.
        // The window therefore starts a few seconds after the first run.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> !runs(logs).isEmpty());
        Instant from = Instant.now().plusSeconds(3).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant to = from.plusSeconds(8);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> runs(logs).keySet().stream().anyMatch(t -> t.isAfter(to.plusSeconds(1))));

        Map<Instant, List<String>> runs = runs(logs);
        Map<Instant, List<String>> window = new TreeMap<>(runs);
        window.keySet().removeIf(t -> t.isBefore(from) || t.isAfter(to));
        assertThat(runs.values()).as("no fire time ran twice: %s", runs).allSatisfy(on -> assertThat(on).hasSize(1));
        assertThat(window).as("every second from %s to %s ran: %s", from, to, runs).hasSize(9);
    }

    private static Map<Instant, List<String>> runs(Path[] logs) throws IOException {
        Map<Instant, List<String>> runs = new TreeMap<>();
        for (int i = 0; i < logs.length; i++) {
            Matcher m = RAN.matcher(read(logs[i]));
            while (m.find()) {
                runs.computeIfAbsent(Instant.parse(m.group(1)), t -> new ArrayList<>()).add("instance-" + (i + 1));
            }
        }
        return runs;
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
