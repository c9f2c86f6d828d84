package io.jobguard.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts PostgreSQL from a directory of server binaries ({@code initdb}, {@code pg_ctl}, {@code postgres}): a
 * fresh cluster in a temp directory, listening on a free loopback port, its socket in that directory, fsync off.
 * initdb and postgres refuse to run as root, so when this JVM runs as root both run as another OS user through
 * {@code runuser} ({@code postgres} when that user exists, else {@code nobody}), the directory chowned to it.
 * Any step that fails (no {@code runuser}, binaries that user cannot read, a server that does not come up)
 * throws with the reason, so the caller can move on to its next source.
 */
final class LocalPostgres {

    static final String DB_USER = "postgres";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private LocalPostgres() {
    }

    /**
     * The first directory on {@code PATH} holding {@code initdb} and {@code pg_ctl}, else the newest
     * {@code /usr/lib/postgresql/<version>/bin} (Debian keeps the server binaries off {@code PATH}).
     */
    static Path binDirectoryOnMachine() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String entry : path.split(File.pathSeparator)) {
                if (!entry.isEmpty() && isBinDirectory(Path.of(entry))) {
                    return Path.of(entry);
                }
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                return versions.map(v -> v.resolve("bin")).filter(LocalPostgres::isBinDirectory)
                        .sorted().reduce((a, b) -> b).orElse(null);
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    static boolean isBinDirectory(Path dir) {
        return Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"));
    }

    static PostgresProcess start(Path bin, String source) {
        String osUser = isRoot() ? nonRootUser() : null;
        Path dir;
        try {
            dir = Files.createTempDirectory("jobguard-pg-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory for PostgreSQL", e);
        }
        try {
            return start(bin, source, osUser, dir);
        } catch (RuntimeException e) {
            deleteQuietly(dir);
            throw e;
        }
    }

    private static PostgresProcess start(Path bin, String source, String osUser, Path dir) {
        if (osUser != null) {
            run(List.of("chown", "-R", osUser, dir.toString()), dir, Duration.ofSeconds(30));
        }
        Path data = dir.resolve("data");
        run(as(osUser, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", DB_USER,
                "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")), dir, START_TIMEOUT);
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = FreePorts.any();
            String options = "-p " + port + " -k " + dir + " -h " + FreePorts.LOOPBACK
                    + " -F -c synchronous_commit=off -c full_page_writes=off -c max_connections=50";
            List<String> pgCtl = List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                    dir.resolve("postgres.log").toString(), "-w", "-t", "60", "-o", options, "start");
            try {
                run(as(osUser, pgCtl), dir, START_TIMEOUT);
            } catch (IllegalStateException e) {
                failure = new IllegalStateException(e.getMessage() + "; log: " + log(dir), e);
                continue;
            }
            List<String> stop = as(osUser, List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(),
                    "-m", "immediate", "-w", "stop"));
            Thread reaper = new Thread(() -> quietly(() -> run(stop, dir, Duration.ofSeconds(30))), "jobguard-pg-reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
            AutoCloseable stopper = () -> {
                run(stop, dir, Duration.ofSeconds(30));
                quietly(() -> Runtime.getRuntime().removeShutdownHook(reaper));
                deleteQuietly(dir);
            };
            return new PostgresProcess(FreePorts.LOOPBACK, port, stopper,
                    source + " " + bin + (osUser != null ? " as OS user " + osUser : ""));
        }
        throw failure;
    }

    static boolean isRoot() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return Integer.valueOf(0).equals(uid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** {@code postgres} when that OS user exists (it can read a distribution's server files), else {@code nobody}. */
    private static String nonRootUser() {
        try {
            Process id = new ProcessBuilder("id", "-u", DB_USER).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (id.waitFor(10, TimeUnit.SECONDS) && id.exitValue() == 0) {
                return DB_USER;
            }
            id.destroyForcibly();
        } catch (IOException e) {
            // No "id" command: fall through to the user every Unix has.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "nobody";
    }

    private static List<String> as(String osUser, List<String> command) {
        if (osUser == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", osUser, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static void run(List<String> command, Path dir, Duration timeout) {
        try {
            Path output = Files.createTempFile(dir, "cmd-", ".out");
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue()
                        + ": " + Files.readString(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    private static String log(Path dir) {
        try {
            return Files.readString(dir.resolve("postgres.log"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static void quietly(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // Best effort at JVM exit or after the server is already gone.
        }
    }

    static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temp directory left behind is harmless.
        }
    }
}
