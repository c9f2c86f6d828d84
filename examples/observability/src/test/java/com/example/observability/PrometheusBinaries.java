package com.example.observability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Finds Prometheus' binaries ({@code prometheus}, {@code promtool}) on the PATH or in {@code /usr/bin}, and fails the
 * test naming the Debian package that installs them when they are missing: the tests that need them never skip.
 */
final class PrometheusBinaries {

    private PrometheusBinaries() {
    }

    /**
     * The binary's path.
     *
     * @param name {@code prometheus} or {@code promtool}
     * @return an executable file
     * @throws AssertionError naming the package when there is none
     */
    static Path require(String name) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        Path usrBin = Path.of("/usr/bin", name);
        if (Files.isExecutable(usrBin)) {
            return usrBin;
        }
        throw new AssertionError(name + " is not on the PATH nor in /usr/bin: install Debian's package prometheus "
                + "(apt-get install prometheus, which .ci/run does; it gives /usr/bin/prometheus and /usr/bin/promtool)");
    }

    /** A finished process: its exit status and what it printed (stdout and stderr together). */
    record Run(int exitCode, String output) {
    }

    /**
     * Runs a command to its end.
     *
     * @param dir     the working directory
     * @param seconds how long it may take
     * @param command the command
     * @return its exit status and output
     * @throws Exception if it cannot start, or does not end in time (it is killed then)
     */
    static Run run(Path dir, long seconds, String... command) throws Exception {
        Path log = Files.createTempFile("promtool", ".log");
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError(String.join(" ", command) + " did not end within " + seconds + " s:\n"
                        + Files.readString(log));
            }
            return new Run(process.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
