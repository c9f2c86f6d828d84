package io.jobguard.examples.demo;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's startup wait on a slow machine: a health request that times out is
 * "not yet", never the end of the demo, and the informational calls cannot abort it.
 */
class HealthPollerTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void healthRequestsThatTimeOutAreRetriedUntilTheNodeAnswersUp() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        // the first three answers hang past the client's request timeout, as a starting node's did under load
        URI health = serve(requests, 3, "{\"status\":\"UP\"}", 200);
        HealthPoller poller = new HealthPoller(HttpClient.newHttpClient(), Duration.ofMillis(300), Duration.ofMillis(10));
        HealthPoller.Result result = poller.await(health, System.nanoTime() + TimeUnit.SECONDS.toNanos(60), () -> false);
        assertThat(result.healthy()).as(result.last()).isTrue();
        assertThat(requests.get()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void aNodeThatNeverAnswersUpEndsTheWaitAtTheDeadlineSayingWhatItLastSaw() throws Exception {
        URI health = serve(new AtomicInteger(), 0, "{\"status\":\"DOWN\"}", 503);
        HealthPoller poller = new HealthPoller(HttpClient.newHttpClient(), Duration.ofSeconds(5), Duration.ofMillis(10));
        HealthPoller.Result result = poller.await(health, System.nanoTime() + TimeUnit.SECONDS.toNanos(1), () -> false);
        assertThat(result.healthy()).isFalse();
        assertThat(result.last()).contains("DOWN");
    }

    @Test
    void aDeadNodeEndsTheWaitAtOnce() throws Exception {
        URI health = serve(new AtomicInteger(), 0, "{\"status\":\"UP\"}", 200);
        HealthPoller poller = new HealthPoller(HttpClient.newHttpClient(), Duration.ofSeconds(5), Duration.ofMillis(10));
        assertThat(poller.await(health, System.nanoTime() + TimeUnit.SECONDS.toNanos(60), () -> true).healthy())
                .isFalse();
    }

    @Test
    void anInformationalCallThatFailsIsPrintedNotThrown() {
        assertThat(DemoRunner.informational(() -> {
            throw new HttpTimeoutException("request timed out");
        })).isEqualTo("(not fetched: java.net.http.HttpTimeoutException: request timed out)");
        assertThat(DemoRunner.informational(() -> "{}")).isEqualTo("{}");
    }

    private URI serve(AtomicInteger requests, int hanging, String body, int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/actuator/health", exchange -> {
            if (requests.incrementAndGet() <= hanging) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            } catch (IOException e) {
                // the client gave up on a hanging answer
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/health");
    }
}
