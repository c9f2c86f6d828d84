package io.jobguard.testing;

import java.util.Optional;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects real Redis servers into JUnit Jupiter tests: parameters of type {@link RedisServerProcess},
 * {@link RedisClusterProcess}, {@link RedisSentinelProcess} and {@link RedisEndpoint} in constructors,
 * lifecycle methods and test methods.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>each server is started lazily, on first request, once per top-level test class (nested classes
 *       share it), and closed after that class, whether its tests passed or failed;</li>
 *   <li>before each test, a standalone server that a previous test left paused or stopped is resumed or
 *       restarted, cluster masters likewise, and every harness-owned server (for Sentinel: the current
 *       primary) is emptied with FLUSHALL
 *       (so data written in {@code @BeforeAll} does not survive into the tests);</li>
 *   <li>a {@link RedisEndpoint} is the server named by {@code JOBGUARD_TEST_REDIS_URL} when set (never
 *       flushed), otherwise the class's {@link RedisServerProcess} (a {@code redis:7} container only when no
 *       redis-server binary is usable but Docker is);</li>
 *   <li>when no Redis can be had, the test fails with an {@link IllegalStateException} saying what to
 *       install; it is never skipped.</li>
 * </ul>
 */
public final class RedisExtension implements ParameterResolver, BeforeEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisExtension.class);
    private static final String STANDALONE = "standalone";
    private static final String CLUSTER = "cluster";
    private static final String SENTINEL = "sentinel";
    private static final String DOCKER = "docker";

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RedisServerProcess.class || type == RedisClusterProcess.class
                || type == RedisSentinelProcess.class || type == RedisEndpoint.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        ExtensionContext.Store store = classStore(context);
        if (type == RedisServerProcess.class) {
            return standalone(store);
        }
        if (type == RedisClusterProcess.class) {
            return store.computeIfAbsent(CLUSTER, key -> RedisClusterProcess.start(), RedisClusterProcess.class);
        }
        if (type == RedisSentinelProcess.class) {
            return store.computeIfAbsent(SENTINEL, key -> RedisSentinelProcess.start(), RedisSentinelProcess.class);
        }
        return endpoint(store);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        ExtensionContext.Store store = classStore(context);
        RedisServerProcess standalone = store.get(STANDALONE, RedisServerProcess.class);
        if (standalone != null) {
            standalone.ensureRunning();
            standalone.flushAll();
        }
        RedisClusterProcess cluster = store.get(CLUSTER, RedisClusterProcess.class);
        if (cluster != null) {
            cluster.ensureRunning();
            cluster.flushAll();
        }
        RedisSentinelProcess sentinel = store.get(SENTINEL, RedisSentinelProcess.class);
        if (sentinel != null) {
            sentinel.flushAll();
        }
        Object docker = store.get(DOCKER);
        if (docker instanceof DockerRedis) {
            ((DockerRedis) docker).flushAll();
        }
    }

    private static RedisServerProcess standalone(ExtensionContext.Store store) {
        return store.computeIfAbsent(STANDALONE, key -> RedisServerProcess.start(), RedisServerProcess.class);
    }

    private static RedisEndpoint endpoint(ExtensionContext.Store store) {
        Optional<ExternalRedis> external = ExternalRedis.fromEnvironment();
        if (external.isPresent()) {
            return external.get();
        }
        RedisServerProcess running = store.get(STANDALONE, RedisServerProcess.class);
        if (running != null) {
            return running;
        }
        if (RedisBinary.endpointSource() == RedisBinary.Source.DOCKER) {
            return store.computeIfAbsent(DOCKER, key -> DockerRedis.start(), RedisEndpoint.class);
        }
        return standalone(store);
    }

    /** The top-level class's store: one set of servers per test class, closed when that class finishes. */
    private static ExtensionContext.Store classStore(ExtensionContext context) {
        ExtensionContext top = context;
        while (top.getParent().flatMap(ExtensionContext::getParent).isPresent()) {
            top = top.getParent().orElseThrow();
        }
        return top.getStore(NAMESPACE);
    }
}
