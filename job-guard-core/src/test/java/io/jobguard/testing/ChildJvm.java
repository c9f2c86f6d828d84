package io.jobguard.testing;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test class path run in a JVM of its own, for tests that need a node to die, freeze or stop
 * the way a real process does.
 *
 * <p>Guarantees: the child runs {@code java <jvmOptions> -cp <this JVM's class path> <mainClass> <args>} with this
 * JVM's {@code java.home}, its stderr merged into its stdout; every line it prints is kept for {@link #output()},
 * and each line starting with {@value #PREFIX} is also queued, without that prefix, for {@link #await}; a child
 * still running when this JVM exits gets SIGKILL; {@link #close()} kills it (SIGKILL) and may be called again.
 */
public final class ChildJvm implements AutoCloseable {

    /** The prefix of the lines a child prints for the test to {@link #await}. */
    public static final String PREFIX = "NODE ";

    /** JVM options for short-lived nodes, where a quick start matters more than peak speed. */
    public static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-Xmx256m");

    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new CopyOnWriteArrayList<>();
    private final Writer stdin;

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    all.add(line);
                    if (line.startsWith(PREFIX)) {
                        lines.add(line.substring(PREFIX.length()));
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
     * Starts {@code mainClass} in a JVM of its own.
     *
     * @param name       what failure messages and the output thread call the child, e.g. its node id
     * @param jvmOptions options before {@code -cp}, e.g. {@link #QUICK_START} and {@code -D} properties
     * @param mainClass  a class with a {@code main} method on this JVM's class path
     * @param args       the arguments of {@code main}
     * @return the started child
     * @throws IOException if the {@code java} process cannot be started
     */
    public static ChildJvm start(String name, List<String> jvmOptions, Class<?> mainClass, List<String> args)
            throws IOException {
        return start(name, jvmOptions, System.getProperty("java.class.path"), mainClass, args);
    }

    /**
     * Starts {@code mainClass} in a JVM of its own on the given class path, e.g. this JVM's without one module.
     *
     * @param name       what failure messages and the output thread call the child
     * @param jvmOptions options before {@code -cp}
     * @param classPath  the child's class path
     * @param mainClass  a class with a {@code main} method on that class path
     * @param args       the arguments of {@code main}
     * @return the started child
     * @throws IOException if the {@code java} process cannot be started
     */
    public static ChildJvm start(String name, List<String> jvmOptions, String classPath, Class<?> mainClass,
                                 List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass.getName());
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ChildProcesses.register(process);
        return new ChildJvm(name, process);
    }

    /**
     * The name given at {@link #start}.
     *
     * @return the child's name
     */
    public String name() {
        return name;
    }

    /**
     * The child's process id.
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Waits for the next queued {@value #PREFIX} line that starts with {@code prefix}; queued lines before it that
     * do not are dropped.
     *
     * @param prefix  how the awaited line starts, after {@value #PREFIX}
     * @param timeout how long to wait at most
     * @return the line, without {@value #PREFIX}
     * @throws InterruptedException if interrupted while waiting
     * @throws AssertionError       if no such line comes within {@code timeout}, with the child's whole output
     */
    public String await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError(name + " (pid " + process.pid() + ") did not print '" + PREFIX + prefix
                        + "' within " + timeout + "; alive=" + process.isAlive() + "; output:\n" + output());
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /**
     * Writes one line to the child's stdin and flushes it.
     *
     * @param line the line, without its line break
     * @throws IOException if the child's stdin is closed
     */
    public void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /**
     * Sends a signal with {@code kill -<signal> <pid>} and waits for {@code kill} to succeed.
     *
     * @param signal the signal's name without {@code SIG}: {@code TERM}, {@code STOP}, {@code CONT}, ...
     * @throws IOException          if {@code kill} cannot be started
     * @throws InterruptedException if interrupted while waiting for {@code kill}
     * @throws AssertionError       if {@code kill} does not exit with 0 within 10 s
     */
    public void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /**
     * Kills the child with SIGKILL (no shutdown hook, no {@code finally} block runs in it) and waits until it is
     * gone.
     *
     * @throws InterruptedException if interrupted while waiting
     * @throws AssertionError       if the child is still alive 10 s later
     */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " (pid " + process.pid() + ") still alive " + KILL_TIMEOUT
                    + " after SIGKILL");
        }
    }

    /**
     * Waits for the child to exit.
     *
     * @param timeout how long to wait at most
     * @return whether it exited within {@code timeout}
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean waitForExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Everything the child printed so far, one line per element.
     *
     * @return a snapshot of its stdout and stderr lines, {@value #PREFIX} lines included
     */
    public List<String> outputLines() {
        return List.copyOf(all);
    }

    /**
     * Everything the child printed so far, for assertions and failure messages.
     *
     * @return its stdout and stderr lines joined by line breaks
     */
    public String output() {
        return String.join("\n", all);
    }

    /** Kills the child with SIGKILL if it still runs; does not wait for it. */
    @Override
    public void close() {
        process.destroyForcibly();
        ChildProcesses.unregister(process);
    }

    @Override
    public String toString() {
        return "ChildJvm[" + name + ", pid " + process.pid() + "]";
    }
}
