package io.jobguard.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import redis.embedded.core.ExecutableProvider;
import redis.embedded.model.Architecture;
import redis.embedded.model.OS;
import redis.embedded.model.OsArchitecture;
import redis.embedded.util.IO;

/**
 * Extracts the redis-server binary bundled in the {@code com.github.codemonstur:embedded-redis} jar.
 *
 * <p>Only the library's extraction is used (it copies the binary to a temp directory, marks it executable and
 * deletes it on exit); the process itself is run by {@link RedisServerProcess}, so it can be stopped, paused
 * and restarted like any other. Kept in its own class so that a module without embedded-redis on its test
 * classpath only fails here, with a {@link LinkageError} the caller can catch.
 */
final class EmbeddedRedisExecutable {

    private EmbeddedRedisExecutable() {
    }

    static Path extract() throws IOException {
        String resource = ExecutableProvider.newProvidedVersionsMap().get(platform());
        if (resource == null) {
            // Let the library try its own detection, which knows platforms we do not map.
            return ExecutableProvider.newJarResourceProvider().get().toPath();
        }
        return IO.writeResourceToExecutableFile(IO.newTempDirForBinary(), resource).toPath();
    }

    /**
     * The platform from the JVM's own properties. The library's detection runs {@code uname}, which fails
     * exactly in the stripped-PATH environments where the embedded binary is the last resort.
     */
    private static OsArchitecture platform() {
        String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        OS os = name.startsWith("windows") ? OS.WINDOWS : name.startsWith("mac") ? OS.MAC_OS_X : OS.UNIX;
        Architecture architecture;
        switch (arch) {
            case "amd64":
            case "x86_64":
                architecture = Architecture.x86_64;
                break;
            case "aarch64":
            case "arm64":
                architecture = Architecture.aarch64;
                break;
            default:
                architecture = Architecture.x86;
                break;
        }
        return new OsArchitecture(os, architecture);
    }
}
