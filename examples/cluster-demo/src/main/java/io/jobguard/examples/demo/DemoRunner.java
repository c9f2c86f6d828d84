package io.jobguard.examples.demo;

import io.jobguard.examples.support.DemoRedis;
import io.jobguard.examples.support.RunLedger;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one-command demo: a Redis, three nodes of {@link DemoApplication} as separate JVMs whose
 * scheduler clocks are off by −2 s, 0 and +3 s, a bounded run, then who ran which fire time.
 * Exits 1 if any fire time ran twice. Usage: {@code DemoRunner [--seconds N]}.
 */
public final class DemoRunner {

    private static final String[] NODES = {"node-A", "node-B", "node-C"};
    private static final String[] OFFSETS = {"-2s", "0s", "3s"};

    private DemoRunner() {
    }

    /**
     * Runs the demo.
     *
     * @param args {@code --seconds N} (default 30)
     * @throws Exception if the demo cannot run
     */
    public static void main(String[] args) throws Exception {
        int seconds = args.length == 2 && "--seconds".equals(args[0]) ? Integer.parseInt(args[1]) : 30;
        List<Process> nodes = new ArrayList<>();
        DemoRedis redis = DemoRedis.start();
        Thread cleanup = new Thread(() -> stopAll(nodes, redis));
        Runtime.getRuntime().addShutdownHook(cleanup);
        int exit;
        try {
            exit = run(redis, nodes, seconds);
        } finally {
            stopAll(nodes, redis);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        System.exit(exit);
    }

    private static int run(DemoRedis redis, List<Process> nodes, int seconds) throws Exception {
        System.out.println("Redis: " + redis.source() + ", port " + redis.port());
        Path logs = Files.createTempDirectory("jobguard-demo");
        int[] ports = new int[NODES.length];
        for (int i = 0; i < NODES.length; i++) {
            ports[i] = DemoRedis.freePort();
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), DemoApplication.class.getName(),
                    "--server.port=" + ports[i], "--demo.node=" + NODES[i], "--demo.clock-offset=" + OFFSETS[i],
                    "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port());
            File log = logs.resolve(NODES[i] + ".log").toFile();
            nodes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start());
            System.out.printf("started %s (clock %s) on port %d, log %s%n", NODES[i], OFFSETS[i], ports[i], log);
        }
        HttpClient http = HttpClient.newHttpClient();
        for (int port : ports) {
            awaitHealthy(http, port, nodes);
        }
        Instant allUp = Instant.now();
        System.out.printf("all nodes up; running for %d s%n", seconds);
        Thread.sleep(seconds * 1000L);
        Instant end = Instant.now();

        // fire times every node saw while all were up: skip the skew (3 s) plus a margin at both ends
        Instant from = allUp.plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        Instant to = end.minusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        RedisLists lists = new RedisLists("127.0.0.1", redis.port());
        RunLedger everySecond = RunLedger.of(lists.range(DemoJobs.EVERY_SECOND));
        RunLedger overrunning = RunLedger.of(lists.range(DemoJobs.OVERRUNNING));

        System.out.println();
        System.out.println("== every-second cron job (RETURN), window " + from + " .. " + to);
        System.out.print(everySecond.table(from, to, Duration.ofSeconds(1)));
        Map<Instant, List<String>> duplicates = everySecond.duplicates();
        List<Instant> misses = everySecond.misses(from, to, Duration.ofSeconds(1));
        System.out.println();
        System.out.println("== overrunning job (WAIT, every 2 s, every third run takes 2.5 s)");
        overrunning.runs().forEach((t, n) -> System.out.printf("%-26s %s%n", t, String.join(",", n)));
        duplicates.putAll(overrunning.duplicates());
        System.out.println();
        System.out.printf("every-second fire times in window: %d, duplicates (all jobs): %d, misses: %d%n",
                Duration.between(from, to).toSeconds() + 1, duplicates.size(), misses.size());
        System.out.printf("batch locks on SKUs: %s orders locked, %s conflicts (skipped, nothing half-locked)%n",
                lists.get(OrderService.ACQUIRED), lists.get(OrderService.CONFLICTS));
        System.out.println();
        System.out.println("== GET /actuator/jobguard (node-A)");
        System.out.println(get(http, ports[0], "/actuator/jobguard"));
        System.out.println("== GET /actuator/metrics/jobguard.job.runs (node-A)");
        System.out.println(get(http, ports[0], "/actuator/metrics/jobguard.job.runs"));
        if (!duplicates.isEmpty()) {
            System.out.println("FAIL: fire times that ran more than once: " + duplicates);
            return 1;
        }
        System.out.println(misses.isEmpty() ? "OK: every fire time ran exactly once"
                : "OK: no fire time ran twice; missed (RETURN skips a firing that overlaps a run): " + misses);
        return 0;
    }

    private static void awaitHealthy(HttpClient http, int port, List<Process> nodes) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            for (Process p : nodes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a node exited during startup (exit " + p.exitValue()
                            + "); see its log");
                }
            }
            try {
                if (get(http, port, "/actuator/health").contains("UP")) {
                    return;
                }
            } catch (ConnectException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("node on port " + port + " did not become healthy in 90 s");
    }

    private static String get(HttpClient http, int port, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    private static void stopAll(List<Process> nodes, DemoRedis redis) {
        for (Process p : nodes) {
            p.destroy();
        }
        for (Process p : nodes) {
            try {
                if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        nodes.clear();
        redis.close();
    }
}
