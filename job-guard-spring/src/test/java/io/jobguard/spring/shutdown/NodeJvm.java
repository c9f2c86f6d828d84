package io.jobguard.spring.shutdown;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link RollingNodeApp} in a JVM of its own, with its output kept and its "NODE ..." lines queued. */
final class NodeJvm implements AutoCloseable {

    private final String name;
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new CopyOnWriteArrayList<>();

    private NodeJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    all.add(line);
                    if (line.startsWith("NODE ")) {
                        lines.add(line.substring(5));
                    }
                }
            } catch (IOException e) {
                all.add("(output ended: " + e + ")");
            }
        }, "output of " + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts node {@code name} on job-guard's default settings, appending to {@code ledger}.
     *
     * @param systemProperties {@code -D} options for {@link RollingNodeApp} ({@code test.run-millis}, ...)
     * @param args             further Spring arguments
     */
    static NodeJvm start(String name, int redisPort, Path ledger, List<String> systemProperties, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx192m", "-Dtest.ledger=" + ledger,
                "-Dtest.node=" + name));
        command.addAll(systemProperties);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RollingNodeApp.class.getName(),
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisPort,
                "--jobguard.namespace=rolling", "--jobguard.node-id=" + name,
                "--spring.main.banner-mode=off", "--spring.main.web-application-type=none", "--logging.level.root=WARN", "--logging.level.io.jobguard=INFO"));
        command.addAll(List.of(args));
        return new NodeJvm(name, new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    String name() {
        return name;
    }

    /** Waits for the next "NODE {@code prefix}..." line and returns it (without "NODE "). */
    String await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError(name + ": no '" + prefix + "' within " + timeout + "; output:\n" + output());
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Sends {@code SIGTERM} (a graceful shutdown: Spring closes the context). */
    void terminate() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -TERM " + process.pid() + " failed");
        }
    }

    boolean waitForExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    String output() {
        return String.join("\n", all);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
