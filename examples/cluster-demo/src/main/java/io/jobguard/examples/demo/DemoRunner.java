package io.jobguard.examples.demo;

import io.jobguard.examples.support.DemoRedis;
import io.jobguard.examples.support.RunLedger;

import java.io.File;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The one-command demo: a Redis, three nodes of {@link DemoApplication} as separate JVMs whose
 * scheduler clocks are off by −2 s, 0 and +3 s, a bounded run, then who ran which fire time.
 * Usage: {@code DemoRunner [--seconds N]}. Exit status: 0 when no fire time ran twice, 1 only when
 * one did (a broken guarantee), 2 when the demo itself could not run (a node did not start, no
 * Redis, ...), with a sentence saying which. A slow machine is not a failure: every HTTP call is
 * retried until an overall deadline, and the informational actuator calls at the end cannot
 * abort the run. Everything printed also goes to {@code demo.log} in the run's directory.
 */
public final class DemoRunner {

    private static final String[] NODES = {"node-A", "node-B", "node-C"};
    private static final String[] OFFSETS = {"-2s", "0s", "3s"};
    /** How long the nodes together may take to become healthy; generous for a loaded 2-core machine. */
    private static final Duration STARTUP_DEADLINE = Duration.ofSeconds(180);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

    /** The demo could not run; not a verdict on job-guard (exit 2). */
    private static final class HarnessProblem extends Exception {
        private static final long serialVersionUID = 1L;

        HarnessProblem(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private DemoRunner() {
    }

    /**
     * Runs the demo.
     *
     * @param args {@code --seconds N} (default 30)
     * @throws Exception if the demo cannot run
     */
    public static void main(String[] args) throws Exception {
        int seconds = seconds(args);
        if (seconds <= 0) {
            System.out.println("DEMO COULD NOT RUN (exit 2, not a job-guard failure): usage: DemoRunner "
                    + "[--seconds N] with N a positive number, got " + String.join(" ", args));
            System.exit(2);
        }
        Path logs = Files.createTempDirectory("jobguard-demo");
        Path output = logs.resolve("demo.log");
        PrintStream console = System.out;
        PrintStream file = new PrintStream(Files.newOutputStream(output), true, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(new TeeOutputStream(console, file), true, StandardCharsets.UTF_8));
        System.out.println("demo output also in " + output);
        List<Process> nodes = new ArrayList<>();
        DemoRedis[] redis = new DemoRedis[1];
        Thread cleanup = new Thread(() -> stopAll(nodes, redis[0]));
        Runtime.getRuntime().addShutdownHook(cleanup);
        int exit;
        try {
            redis[0] = startRedis();
            exit = run(redis[0], nodes, seconds, logs);
        } catch (HarnessProblem e) {
            System.out.println("DEMO COULD NOT RUN (exit 2, not a job-guard failure): " + e.getMessage()
                    + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            exit = 2;
        } catch (Exception e) {
            System.out.println("DEMO COULD NOT RUN (exit 2, not a job-guard failure): unexpected " + e);
            e.printStackTrace(System.out);
            exit = 2;
        } finally {
            stopAll(nodes, redis[0]);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        System.out.println("demo output saved in " + output);
        System.out.flush();
        file.close();
        System.exit(exit);
    }

    private static int seconds(String[] args) {
        if (args.length == 0) {
            return 30;
        }
        if (args.length == 2 && "--seconds".equals(args[0])) {
            try {
                return Integer.parseInt(args[1].trim());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }

    private static DemoRedis startRedis() throws HarnessProblem {
        try {
            return DemoRedis.start();
        } catch (RuntimeException e) {
            throw new HarnessProblem("no Redis could be started: " + e.getMessage(), e.getCause());
        }
    }

    private static int run(DemoRedis redis, List<Process> nodes, int seconds, Path logs) throws Exception {
        System.out.println("Redis: " + redis.source() + ", port " + redis.port());
        int[] ports = new int[NODES.length];
        for (int i = 0; i < NODES.length; i++) {
            ports[i] = DemoRedis.freePort();
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), DemoApplication.class.getName(),
                    "--server.port=" + ports[i], "--demo.node=" + NODES[i], "--demo.clock-offset=" + OFFSETS[i],
                    "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port());
            File log = logs.resolve(NODES[i] + ".log").toFile();
            try {
                nodes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start());
            } catch (IOException e) {
                throw new HarnessProblem("could not start the JVM of " + NODES[i], e);
            }
            System.out.printf("started %s (clock %s) on port %d, log %s%n", NODES[i], OFFSETS[i], ports[i], log);
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
        long deadline = System.nanoTime() + STARTUP_DEADLINE.toNanos();
        for (int i = 0; i < ports.length; i++) {
            awaitHealthy(http, i, ports, nodes, logs, deadline);
        }
        Instant allUp = Instant.now();
        System.out.printf("all nodes up; running for %d s%n", seconds);
        Thread.sleep(seconds * 1000L);
        Instant end = Instant.now();

        // fire times every node saw while all were up: skip the skew (3 s) plus a margin at both ends
        Instant from = allUp.plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        Instant to = end.minusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        RedisLists lists = new RedisLists("127.0.0.1", redis.port());
        RunLedger everySecond;
        RunLedger overrunning;
        try {
            everySecond = RunLedger.of(lists.range(DemoKeys.EVERY_SECOND));
            overrunning = RunLedger.of(lists.range(DemoKeys.OVERRUNNING));
        } catch (RuntimeException e) {
            throw new HarnessProblem("could not read the runs the nodes recorded in Redis", e);
        }

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
                informational(() -> lists.get(DemoKeys.ACQUIRED)),
                informational(() -> lists.get(DemoKeys.CONFLICTS)));
        System.out.println();
        System.out.println("== GET /actuator/jobguard (node-A)");
        System.out.println(informational(() -> get(http, ports[0], "/actuator/jobguard")));
        System.out.println("== GET /actuator/metrics/jobguard.job.runs (node-A)");
        System.out.println(informational(() -> get(http, ports[0], "/actuator/metrics/jobguard.job.runs")));
        if (!duplicates.isEmpty()) {
            System.out.println("FAIL: fire times that ran more than once: " + duplicates);
            return 1;
        }
        System.out.println(misses.isEmpty() ? "OK: every fire time ran exactly once"
                : "OK: no fire time ran twice; missed (RETURN skips a firing that overlaps a run): " + misses);
        return 0;
    }

    /** Waits for one node's health, any I/O error meaning "not yet", until the overall deadline. */
    private static void awaitHealthy(HttpClient http, int index, int[] ports, List<Process> nodes, Path logs,
                                     long deadline) throws HarnessProblem, InterruptedException {
        HealthPoller.Result result = new HealthPoller(http, REQUEST_TIMEOUT, Duration.ofMillis(250)).await(
                URI.create("http://127.0.0.1:" + ports[index] + "/actuator/health"), deadline,
                () -> nodes.stream().anyMatch(p -> !p.isAlive()));
        for (int i = 0; i < nodes.size(); i++) {
            Process p = nodes.get(i);
            if (!p.isAlive()) {
                throw new HarnessProblem(NODES[i] + " exited during startup with status " + p.exitValue()
                        + "; see " + logs.resolve(NODES[i] + ".log"), null);
            }
        }
        if (!result.healthy()) {
            throw new HarnessProblem(NODES[index] + " (port " + ports[index] + ") did not become healthy within "
                    + STARTUP_DEADLINE.toSeconds() + " s (last: " + result.last() + "); see "
                    + logs.resolve(NODES[index] + ".log"), null);
        }
    }

    /**
     * Output that only informs: a failure to fetch it is printed, never fatal.
     *
     * @param fetch what to print
     * @return its text, or why it could not be fetched
     */
    static String informational(Callable<String> fetch) {
        try {
            return fetch.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(not fetched: interrupted)";
        } catch (Exception e) {
            return "(not fetched: " + e + ")";
        }
    }

    private static String get(HttpClient http, int port, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(REQUEST_TIMEOUT).build();
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
        if (redis != null) {
            redis.close();
        }
    }

    /** Writes to the console ({@code out}) and to the demo's log file ({@code copy}). */
    private static final class TeeOutputStream extends FilterOutputStream {
        private final OutputStream copy;

        TeeOutputStream(OutputStream out, OutputStream copy) {
            super(out);
            this.copy = copy;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            copy.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            copy.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
            copy.flush();
        }
    }
}
