package io.jobguard.recovery;

import io.jobguard.testing.TcpProxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The multi-JVM harness of {@link RestartingNode}: starts node {@code i} as its own JVM with node id
 * {@code n<i+1>}, its append-only ledger {@code n<i+1>.ledger} and its output {@code n<i+1>.log} in one directory;
 * stops it with SIGTERM (and checks that it shut down gracefully) or SIGKILL; reads the ledgers back for a checker
 * that knows nothing of the engine. A node started again keeps appending to the same ledger.
 */
public final class RestartingNodes implements AutoCloseable {

    private final Path dir;
    private final Process[] nodes;
    private final int[] ports;

    /**
     * @param redisPort the redis-server every node talks to
     * @param dir       where the ledgers and logs go
     * @param size      how many nodes at most
     */
    public RestartingNodes(int redisPort, Path dir, int size) {
        this.dir = dir;
        this.nodes = new Process[size];
        this.ports = new int[size];
        Arrays.fill(ports, redisPort);
    }

    /**
     * Makes node {@code node}'s later starts talk to Redis through {@code port} (a {@link TcpProxy}
     * in front of the same server) instead of the server's own port.
     *
     * @param node the node's index
     * @param port the port its next starts connect to
     */
    public void route(int node, int port) {
        ports[node] = port;
    }

    /**
     * Starts node {@code node}: the arguments after the ledger path of {@link RestartingNode}.
     *
     * @param node        the node's index
     * @param clockMillis its scheduler clock's offset from the system clock
     * @param toleranceMillis skew tolerance
     * @param job         the job's name
     * @param more        misfire policy (or {@code NONE}), catch-up max, and optionally a step file
     */
    public void start(int node, long clockMillis, long toleranceMillis, String job, String... more) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), RestartingNode.class.getName(),
                Integer.toString(ports[node]), id(node), Long.toString(clockMillis), Long.toString(toleranceMillis), job,
                ledger(node).toString()));
        command.addAll(List.of(more));
        try {
            nodes[node] = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(id(node) + ".log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGTERM, and the node's graceful shutdown to its end.
     *
     * @param node the node's index
     * @throws InterruptedException if interrupted while waiting
     */
    public void stop(int node) throws InterruptedException {
        long stopped = count(node, "STOPPED");
        nodes[node].destroy();
        if (!nodes[node].waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError(id(node) + " did not stop within 30 s of SIGTERM; its threads:\n"
                    + threadDump(nodes[node]));
        }
        assertThat(count(node, "STOPPED")).as("%s shut down gracefully", id(node)).isGreaterThan(stopped);
    }

    /**
     * SIGTERM to every given node at once (all signals sent before the first wait), then each node's graceful
     * shutdown to its end, as {@link #stop(int)} checks it.
     *
     * @param indexes the nodes' indexes
     * @throws InterruptedException if interrupted while waiting
     */
    public void stopAll(int... indexes) throws InterruptedException {
        long[] stopped = new long[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            stopped[i] = count(indexes[i], "STOPPED");
        }
        for (int node : indexes) {
            nodes[node].destroy();
        }
        for (int i = 0; i < indexes.length; i++) {
            int node = indexes[i];
            if (!nodes[node].waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError(id(node) + " did not stop within 30 s of SIGTERM; its threads:\n"
                        + threadDump(nodes[node]));
            }
            assertThat(count(node, "STOPPED")).as("%s shut down gracefully", id(node)).isGreaterThan(stopped[i]);
        }
    }

    /** The node's threads, as {@code jcmd <pid> Thread.print} prints them (for a failure's message). */
    private static String threadDump(Process process) {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            Process dump = new ProcessBuilder(jcmd, Long.toString(process.pid()), "Thread.print").redirectErrorStream(true)
                    .start();
            String text = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            dump.waitFor(30, TimeUnit.SECONDS);
            return text;
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    /**
     * SIGKILL: the node ends at once, without its shutdown.
     *
     * @param node the node's index
     * @throws InterruptedException if interrupted while waiting
     */
    public void kill(int node) throws InterruptedException {
        nodes[node].destroyForcibly();
        assertThat(nodes[node].waitFor(30, TimeUnit.SECONDS)).as("%s ended on SIGKILL", id(node)).isTrue();
    }

    /**
     * @param node the node's index
     * @return its node id
     */
    public String id(int node) {
        return "n" + (node + 1);
    }

    /**
     * @param node the node's index
     * @return its ledger file
     */
    public Path ledger(int node) {
        return dir.resolve(id(node) + ".ledger");
    }

    /**
     * @param node the node's index
     * @param kind the first field of a ledger line
     * @return how many lines of that kind the node's ledger has
     */
    public long count(int node, String kind) {
        return lines(node).stream().filter(l -> l[0].equals(kind)).count();
    }

    /** @return every node's ledger lines, split at tabs, node by node */
    public List<String[]> lines() {
        List<String[]> all = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            all.addAll(lines(i));
        }
        return all;
    }

    /**
     * @param node the node's index
     * @return its ledger's lines, split at tabs
     */
    public List<String[]> lines(int node) {
        Path ledger = ledger(node);
        try {
            if (!Files.exists(ledger)) {
                return List.of();
            }
            return Files.readAllLines(ledger, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                    .map(l -> l.split("\t")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every ledger, for an assertion's message */
    public String describe() {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < nodes.length; i++) {
            all.append("\n--- ").append(id(i)).append('\n');
            lines(i).forEach(l -> all.append(String.join(" ", l)).append('\n'));
        }
        return all.toString();
    }

    /** Kills every node still running. */
    @Override
    public void close() {
        for (Process node : nodes) {
            if (node != null) {
                try {
                    node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
