package io.jobguard.examples.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node as its own JVM: started, signalled (SIGKILL, SIGSTOP, SIGCONT, SIGTERM) and read through its ledger.
 *
 * @param name      the node's name
 * @param ledger    its ledger file
 * @param clockFile the file its scheduler clock's step is written to
 * @param log       its console output
 * @param process   the JVM
 */
record NodeJvm(String name, Path ledger, Path clockFile, Path log, Process process) {

    static NodeJvm start(String name, String clockOffset, String library, Path dir, String classpath,
                         List<String> extraArgs) throws IOException {
        Path ledger = dir.resolve(name + ".ledger");
        Path clockFile = dir.resolve(name + ".clock-step-ms");
        Path log = dir.resolve(name + ".log");
        Files.writeString(ledger, "");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // small, quick-starting JVMs: three of them share a loaded machine with the Redis processes
                "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", classpath, FaultNodeApplication.class.getName(),
                "--fault.node=" + name, "--fault.library=" + library, "--fault.ledger=" + ledger,
                "--fault.clock-offset=" + clockOffset, "--fault.clock-file=" + clockFile,
                "--jobguard.enabled=" + "job-guard".equals(library)));
        command.addAll(extraArgs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new NodeJvm(name, ledger, clockFile, log, process);
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    List<String> ledgerLines() {
        try {
            return Files.readAllLines(ledger, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean ready() {
        return ledgerLines().stream().anyMatch(l -> l.contains("\t" + NodeLedger.READY + "\t"));
    }

    /** Whether the node's last line of the job is a start: it is running the job now. */
    boolean running(String job) {
        List<String> lines = ledgerLines();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] f = lines.get(i).split("\t");
            if (f.length >= 4 && f[3].equals(job)) {
                return f[1].equals(NodeLedger.START);
            }
        }
        return false;
    }

    /**
     * The attempt of {@code job} this node is running now: its last start or end line of the job is a start
     * (outcome lines aside), whose last field is the attempt.
     *
     * @param job the job
     * @return the attempt, or 0 when it is not running the job
     */
    int runningAttempt(String job) {
        List<String> lines = ledgerLines();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] f = lines.get(i).split("\t");
            if (f.length >= 8 && f[3].equals(job) && (f[1].equals(NodeLedger.START) || f[1].equals(NodeLedger.END))) {
                try {
                    return f[1].equals(NodeLedger.START) ? Integer.parseInt(f[7]) : 0;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    void sigkill() {
        process.destroyForcibly();
    }

    void stepClock(long millis) {
        try {
            Path tmp = clockFile.resolveSibling(clockFile.getFileName() + ".tmp");
            Files.writeString(tmp, Long.toString(millis));
            Files.move(tmp, clockFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGCONT (in case it is stopped), SIGTERM, and SIGKILL if it has not exited in 15 s. */
    void stop() {
        if (!process.isAlive()) {
            return;
        }
        try {
            signal("CONT");
        } catch (RuntimeException e) {
            // it exited meanwhile
        }
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
