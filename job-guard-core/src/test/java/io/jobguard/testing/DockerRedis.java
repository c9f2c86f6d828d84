package io.jobguard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@code redis:7} Testcontainers container, used only as a {@link RedisEndpoint} when no redis-server
 * binary is installed. It cannot be paused or restarted on the same port, which is why
 * {@link RedisServerProcess} never runs on Docker.
 */
final class DockerRedis implements RedisEndpoint, AutoCloseable {

    private static final int REDIS_PORT = 6379;

    private final GenericContainer<?> container;

    private DockerRedis(GenericContainer<?> container) {
        this.container = container;
    }

    static DockerRedis start() {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7"));
        container.addExposedPort(REDIS_PORT);
        container.start();
        return new DockerRedis(container);
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(REDIS_PORT);
    }

    @Override
    public String uri() {
        return "redis://" + host() + ":" + port();
    }

    @Override
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        return ConnectionFactories.standalone(new RedisStandaloneConfiguration(host(), port()), commandTimeout, false);
    }

    void flushAll() {
        try {
            RespClient.once(host(), port(), "FLUSHALL");
        } catch (IOException e) {
            throw new UncheckedIOException("FLUSHALL failed on " + uri(), e);
        }
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "DockerRedis[" + host() + ":" + port() + "]";
    }
}
