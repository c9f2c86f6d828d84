package io.jobguard.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;

import redis.embedded.core.ExecutableProvider;

/**
 * Extracts the redis-server binary bundled in the {@code com.github.codemonstur:embedded-redis} jar.
 *
 * <p>Only the library's extraction is used (it copies the binary matching this OS and CPU to a temp
 * directory, marks it executable and deletes it on exit); the process itself is run by
 * {@link RedisServerProcess}, so it can be stopped, paused and restarted like any other. Kept in its own
 * class so that a module without embedded-redis on its test classpath only fails here, with a
 * {@link LinkageError} the caller can catch.
 */
final class EmbeddedRedisExecutable {

    private EmbeddedRedisExecutable() {
    }

    static Path extract() throws IOException {
        File binary = ExecutableProvider.newJarResourceProvider().get();
        return binary.toPath();
    }
}
