package io.jobguard.testing;

import org.testcontainers.DockerClientFactory;

/** Isolates the Testcontainers reference so that a module without Testcontainers simply sees "no Docker". */
final class DockerProbe {

    private DockerProbe() {
    }

    static boolean available() {
        return DockerClientFactory.instance().isDockerAvailable();
    }
}
