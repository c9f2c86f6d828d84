package io.jobguard.spring.it;

import io.jobguard.testing.RedisEndpoint;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.List;

/** Spring Boot applications ("nodes") sharing one Redis, started concurrently, closed together. */
final class Nodes implements AutoCloseable {

    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

    /**
     * Starts one node per property set, concurrently.
     *
     * @param redis the shared Redis
     * @param app   the application class
     * @param nodes per node: extra properties (key=value)
     * @return the started nodes
     */
    static Nodes start(RedisEndpoint redis, Class<?> app, List<List<String>> nodes) {
        // One after the other: Boot (re)initializes the JVM-wide Logback context while a context starts,
        // and concurrent starts once broke it (NoSuchElementException in LoggerContext.fireOnReset),
        // failing every later context in the JVM.
        Nodes started = new Nodes();
        try {
            for (List<String> props : nodes) {
                started.contexts.add(context(redis, app, WebApplicationType.NONE, props));
            }
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
        return started;
    }

    static ConfigurableApplicationContext context(RedisEndpoint redis, Class<?> app, WebApplicationType type,
                                                  List<String> props) {
        List<String> all = new ArrayList<>(List.of(
                "spring.data.redis.host=" + redis.host(),
                "spring.data.redis.port=" + redis.port(),
                "spring.main.banner-mode=off",
                "logging.level.root=WARN",
                "logging.level.io.jobguard=INFO"));
        all.addAll(props);
        return new SpringApplicationBuilder(app).web(type).properties(all.toArray(String[]::new)).run();
    }

    List<ConfigurableApplicationContext> contexts() {
        return contexts;
    }

    @Override
    public void close() {
        contexts.forEach(ConfigurableApplicationContext::close);
        contexts.clear();
    }
}
