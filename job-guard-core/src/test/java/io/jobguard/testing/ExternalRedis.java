package io.jobguard.testing;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis the harness did not start, named by the environment variable {@value #URL_ENV}
 * ({@code redis://[[user]:password@]host[:port][/database]} or {@code rediss://...}).
 *
 * <p>The harness only connects to it: it never flushes, stops or reconfigures it.
 */
public final class ExternalRedis implements RedisEndpoint {

    /** Environment variable with the URL of an externally managed Redis. */
    public static final String URL_ENV = "JOBGUARD_TEST_REDIS_URL";

    private static final int DEFAULT_PORT = 6379;

    private final String url;
    private final RedisStandaloneConfiguration server;
    private final boolean ssl;

    private ExternalRedis(String url, RedisStandaloneConfiguration server, boolean ssl) {
        this.url = url;
        this.server = server;
        this.ssl = ssl;
    }

    /**
     * The Redis named by {@value #URL_ENV}.
     *
     * @return the endpoint, or empty if the variable is unset or blank
     * @throws IllegalArgumentException if the variable is set but is not a Redis URL
     */
    public static Optional<ExternalRedis> fromEnvironment() {
        String url = System.getenv(URL_ENV);
        return url == null || url.isBlank() ? Optional.empty() : Optional.of(parse(url.trim()));
    }

    /**
     * Parses a Redis URL.
     *
     * @param url for example {@code redis://:secret@redis.test:6380/2}
     * @return the endpoint
     * @throws IllegalArgumentException if the URL is not a redis or rediss URL with a host
     */
    public static ExternalRedis parse(String url) {
        URI uri = URI.create(url);
        String scheme = uri.getScheme();
        if (!("redis".equals(scheme) || "rediss".equals(scheme)) || uri.getHost() == null) {
            throw new IllegalArgumentException("Not a redis:// or rediss:// URL with a host: " + url);
        }
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(uri.getHost(),
                uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort());
        String userInfo = uri.getUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                server.setPassword(RedisPassword.of(userInfo));
            } else {
                if (colon > 0) {
                    server.setUsername(userInfo.substring(0, colon));
                }
                server.setPassword(RedisPassword.of(userInfo.substring(colon + 1)));
            }
        }
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            server.setDatabase(Integer.parseInt(path.substring(1)));
        }
        return new ExternalRedis(url, server, "rediss".equals(scheme));
    }

    @Override
    public String host() {
        return server.getHostName();
    }

    @Override
    public int port() {
        return server.getPort();
    }

    /** The URL exactly as configured, credentials included. */
    @Override
    public String uri() {
        return url;
    }

    @Override
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        return ConnectionFactories.standalone(server, commandTimeout, ssl);
    }

    @Override
    public String toString() {
        return "ExternalRedis[" + host() + ":" + port() + "]";
    }
}
