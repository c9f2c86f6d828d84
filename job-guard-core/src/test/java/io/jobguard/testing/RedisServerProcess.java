package io.jobguard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real redis-server child process on a free loopback port, fully under the test's control.
 *
 * <p>Guarantees: the server answers PING when {@link #start()} or {@link #restart()} returns; it keeps its
 * port for its whole life, across {@link #stop()}/{@link #restart()}; it persists nothing ({@code save ""},
 * no AOF), so a restart starts empty; its stdout/stderr go to a log file in its own temp directory, quoted
 * in every startup failure; {@link #close()} kills it (also when paused), deletes that directory and is
 * idempotent; a JVM shutdown hook kills it if nobody closed it.
 *
 * <p>The harness's own admin commands use {@link RespClient}, so they count in {@link #commandStats()}
 * (as {@code info}, {@code flushall}, ...) but never touch the Lettuce client under test.
 */
public final class RedisServerProcess implements RedisEndpoint, AutoCloseable {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration GRACEFUL_EXIT = Duration.ofSeconds(2);
    private static final int START_ATTEMPTS = 3;
    /** By absolute path where possible: the embedded fallback exists for environments with a stripped PATH. */
    private static final String KILL = Stream.of("/bin/kill", "/usr/bin/kill")
            .filter(candidate -> Files.isExecutable(Path.of(candidate)))
            .findFirst()
            .orElse("kill");

    private final Path executable;
    private final Path dir;
    private final List<String> leadingArgs;
    private final List<String> extraArgs;
    private final int port;
    private Process process;
    private boolean paused;
    private boolean closed;

    private RedisServerProcess(Path executable, Path dir, int port, List<String> leadingArgs, List<String> extraArgs) {
        this.executable = executable;
        this.dir = dir;
        this.leadingArgs = leadingArgs;
        this.port = port;
        this.extraArgs = extraArgs;
    }

    /**
     * Starts a server with the binary chosen by {@link RedisBinary#executable()}.
     *
     * @return the running server
     * @throws IllegalStateException if there is no usable binary or the server does not come up
     */
    public static RedisServerProcess start() {
        return start(RedisBinary.executable());
    }

    /**
     * Starts a server with the given binary.
     *
     * @param executable a redis-server binary
     * @return the running server
     * @throws IllegalStateException if the server does not come up
     */
    public static RedisServerProcess start(Path executable) {
        return start(executable, FreePorts::any, port -> List.of());
    }

    /** Starts with extra arguments that may depend on the port; retries on another port if it was taken. */
    static RedisServerProcess start(Path executable, IntSupplier ports,
                                    IntFunction<List<String>> extraArgs) {
        return start(executable, ports, dir -> List.of(), extraArgs);
    }

    /**
     * Starts a Sentinel (quorum 1, a master counts as down after 1 s) that watches the given master.
     *
     * @param executable a redis-server binary (run with {@code --sentinel})
     * @param masterName the name clients ask Sentinel for
     * @param masterPort the master's loopback port
     * @return the running Sentinel
     */
    static RedisServerProcess startSentinel(Path executable, String masterName, int masterPort) {
        // Sentinel insists on a writable config file, which it rewrites as it learns the topology.
        return start(executable, FreePorts::any, dir -> {
            Path config = dir.resolve("sentinel.conf");
            try {
                Files.writeString(config, String.join(System.lineSeparator(),
                        "sentinel monitor " + masterName + " " + FreePorts.LOOPBACK + " " + masterPort + " 1",
                        "sentinel down-after-milliseconds " + masterName + " 1000",
                        "sentinel failover-timeout " + masterName + " 5000",
                        ""), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write " + config, e);
            }
            return List.of(config.toString(), "--sentinel");
        }, port -> List.of());
    }

    private static RedisServerProcess start(Path executable, IntSupplier ports,
                                            Function<Path, List<String>> leadingArgs,
                                            IntFunction<List<String>> extraArgs) {
        Path dir;
        try {
            dir = Files.createTempDirectory("jobguard-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temp directory for redis-server", e);
        }
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = ports.getAsInt();
            RedisServerProcess server = new RedisServerProcess(executable, dir, port, leadingArgs.apply(dir),
                    extraArgs.apply(port));
            try {
                server.launch();
                return server;
            } catch (IllegalStateException e) {
                server.kill(Duration.ZERO);
                failure = e;
                if (!e.getMessage().contains("Address already in use")) {
                    break;
                }
            }
        }
        deleteRecursively(dir);
        throw failure;
    }

    @Override
    public String host() {
        return FreePorts.LOOPBACK;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String uri() {
        return "redis://" + host() + ":" + port;
    }

    /**
     * The OS process id of the running server, for checks through {@link ProcessHandle}.
     *
     * @return the pid
     * @throws IllegalStateException if the server is not running
     */
    public synchronized long pid() {
        requireRunning();
        return process.pid();
    }

    /**
     * Whether the process is alive; a paused server is still running.
     *
     * @return true if alive
     */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Whether {@link #pause()} stopped the process and {@link #resume()} has not continued it yet.
     *
     * @return true if paused
     */
    public synchronized boolean isPaused() {
        return paused && isRunning();
    }

    /** Shuts the server down (SHUTDOWN NOSAVE, SIGKILL if it lingers) and returns once its port is closed. */
    public synchronized void stop() {
        if (!isRunning()) {
            kill(Duration.ZERO);
            return;
        }
        resume();
        Duration grace = Duration.ZERO;
        try (RespClient client = RespClient.connect(host(), port, RespClient.DEFAULT_TIMEOUT)) {
            client.callExpectingDisconnect("SHUTDOWN", "NOSAVE");
            grace = GRACEFUL_EXIT;
        } catch (IOException e) {
            // The SIGKILL in kill() still stops it.
        }
        kill(grace);
        if (!Poll.until(SHUTDOWN_TIMEOUT, () -> !FreePorts.isListening(port))) {
            throw new IllegalStateException("Port " + port + " is still open after stopping redis-server");
        }
    }

    /**
     * Starts the server again on the same port, stopping it first if needed; the data is gone.
     *
     * @throws IllegalStateException if it does not come up, e.g. because another process took the port
     */
    public synchronized void restart() {
        requireOpen();
        stop();
        launch();
    }

    /** Freezes the process with SIGSTOP: connections stay open but nothing is answered until {@link #resume()}. */
    public synchronized void pause() {
        requireRunning();
        if (!paused) {
            signal("STOP");
            paused = true;
        }
    }

    /** Continues a paused process with SIGCONT; does nothing if it is not paused. */
    public synchronized void resume() {
        if (paused && isRunning()) {
            signal("CONT");
        }
        paused = false;
    }

    /** Resumes a paused server or restarts a stopped one, so that the next test finds it answering. */
    public synchronized void ensureRunning() {
        requireOpen();
        if (!isRunning()) {
            restart();
        } else {
            resume();
        }
    }

    /** Deletes every key in every database. */
    public void flushAll() {
        call("FLUSHALL");
    }

    /**
     * The raw text of one INFO section.
     *
     * @param section for example {@code server}, {@code clients}, {@code commandstats}
     * @return the INFO reply
     */
    public String info(String section) {
        return (String) call("INFO", section);
    }

    /**
     * Calls per command since start or {@link #resetStats()}, from {@code INFO commandstats}.
     *
     * @return lower-case command name (subcommands as {@code config|resetstat} on Redis 7) to call count
     */
    public Map<String, Long> commandStats() {
        return parseCommandStats(info("commandstats"));
    }

    /** Zeroes the command statistics (CONFIG RESETSTAT). */
    public void resetStats() {
        call("CONFIG", "RESETSTAT");
    }

    /**
     * Runs any command through the harness's own client.
     *
     * @param args the command and its arguments
     * @return the decoded reply, see {@link RespClient}
     */
    public Object call(String... args) {
        try {
            return RespClient.once(host(), port, args);
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", args) + " failed on " + uri(), e);
        }
    }

    @Override
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        return ConnectionFactories.standalone(new RedisStandaloneConfiguration(host(), port), commandTimeout, false);
    }

    /**
     * A new, started, pooled Jedis connection factory for this server; the caller destroys it.
     *
     * @return the started factory
     */
    public JedisConnectionFactory jedisConnectionFactory() {
        return ConnectionFactories.jedisStandalone(new RedisStandaloneConfiguration(host(), port),
                DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * What the server has written to stdout and stderr so far.
     *
     * @return the log text, or a note if it cannot be read
     */
    public String log() {
        try {
            return Files.readString(logFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no redis-server log: " + e + ")";
        }
    }

    /** Kills the process and deletes its directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        kill(Duration.ZERO);
        deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return "RedisServerProcess[" + uri() + "]";
    }

    static Map<String, Long> parseCommandStats(String info) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = line.substring("cmdstat_".length(), colon);
            for (String field : line.substring(colon + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    calls.put(name, Long.parseLong(field.substring("calls=".length())));
                }
            }
        }
        return Collections.unmodifiableMap(calls);
    }

    private void launch() {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(leadingArgs);
        command.addAll(List.of(
                "--port", Integer.toString(port),
                "--bind", FreePorts.LOOPBACK,
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "no",
                "--dir", dir.toString()));
        command.addAll(extraArgs);
        try {
            Files.writeString(logFile(), "$ " + String.join(" ", command) + System.lineSeparator(),
                    StandardCharsets.UTF_8);
            process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot run " + executable + ": " + e.getMessage(), e);
        }
        ChildProcesses.register(process);
        paused = false;
        if (!Poll.until(STARTUP_TIMEOUT, this::answersPing)) {
            String reason = process.isAlive() ? "did not answer PING within " + STARTUP_TIMEOUT.toSeconds() + " s"
                    : "exited with code " + process.exitValue();
            throw new IllegalStateException("redis-server on port " + port + " " + reason + "; its output:"
                    + System.lineSeparator() + log());
        }
    }

    private boolean answersPing() {
        if (!process.isAlive()) {
            // Stop polling at once; the caller reports the exit code and the log.
            return true;
        }
        try {
            return "PONG".equals(RespClient.once(host(), port, "PING"));
        } catch (IOException e) {
            return false;
        }
    }

    private void kill(Duration grace) {
        Process current = process;
        process = null;
        paused = false;
        if (current == null) {
            return;
        }
        try {
            if (!current.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                current.destroyForcibly();
            }
            if (!current.waitFor(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("redis-server pid " + current.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            current.destroyForcibly();
        } finally {
            ChildProcesses.unregister(current);
        }
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder(KILL, "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + signal, e);
        }
    }

    private Path logFile() {
        return dir.resolve("redis-" + port + ".log");
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    private void requireRunning() {
        requireOpen();
        if (!isRunning()) {
            throw new IllegalStateException(this + " is not running");
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Collections.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            // Temp files only; leaving them behind must not fail a test.
        }
    }
}
