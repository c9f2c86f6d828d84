package io.jobguard.spring.tx;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test class path run in a JVM of its own, with its "NODE ..." output lines queued for the
 * test and signals sent to it by pid (SIGSTOP, SIGCONT, SIGTERM). Everything it prints is kept for failure
 * messages.
 */
final class NodeProcess implements AutoCloseable {

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Writer stdin;

    private NodeProcess(Process process) {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
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
        }, "node-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static NodeProcess start(Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // A quick start matters more than peak speed for these short-lived nodes.
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new NodeProcess(process);
    }

    /** Waits for the next NODE line starting with {@code prefix}, skipping others; returns the whole line. */
    String await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("node " + process.pid() + " did not print '" + prefix + "' within " + timeout
                        + "; alive=" + process.isAlive() + "; output:\n" + String.join("\n", all));
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    boolean waitForExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int exitValue() {
        return process.exitValue();
    }

    String output() {
        return String.join("\n", all);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
