package io.jobguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy between the harness's own RESP client and a real redis-server: each fault as a test sees it. */
@WithRedis
class TcpProxyIT {

    private static final Duration SHORT = Duration.ofMillis(700);

    private TcpProxy proxy;
    private RedisServerProcess redis;

    @BeforeEach
    void start(RedisServerProcess redis) {
        this.redis = redis;
        proxy = TcpProxy.start(redis.host(), redis.port());
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            assertThat(client.call("SET", "k", "v")).isEqualTo("OK");
            assertThat(client.call("GET", "k")).isEqualTo("v");
        }
        assertThat(redis.call("GET", "k")).isEqualTo("v");
        assertThat(proxy.acceptedCount()).isEqualTo(1);
    }

    @Test
    void delayHoldsEachReplyBackAtLeastThatLong() throws IOException {
        proxy.delay(Duration.ofMillis(300));
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            long start = System.nanoTime();
            assertThat(client.call("PING")).isEqualTo("PONG");
            // Request and reply are each delayed: a lower bound only, which load cannot break.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
        }
    }

    @Test
    void eachDirectionWaitsForItsOwnDelayOnly() throws Exception {
        Duration delay = Duration.ofSeconds(3);
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), Duration.ofSeconds(20))) {
            proxy.delay(Duration.ZERO, delay);
            long start = System.nanoTime();
            CompletableFuture<Object> reply = CompletableFuture.supplyAsync(() -> call(client, "INCR", "n"));
            await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(redis.call("GET", "n")).isEqualTo("1"));
            assertThat(reply).as("the reply is held, the request was not").isNotDone();
            assertThat(reply.get(20, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(delay);

            proxy.delay(delay, Duration.ZERO);
            start = System.nanoTime();
            reply = CompletableFuture.supplyAsync(() -> call(client, "INCR", "n"));
            assertThat(redis.call("GET", "n")).as("the request is held").isEqualTo("1");
            assertThat(reply.get(20, TimeUnit.SECONDS)).isEqualTo(2L);
            // Lower bounds only, which load cannot break.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(delay);
        }
    }

    @Test
    void aSubMillisecondDelayAddsAboutThatMuchToTheFastestRoundTrip() throws IOException {
        proxy.delay(Duration.ofNanos(250_000), Duration.ofNanos(250_000));
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            long fastest = Long.MAX_VALUE;
            for (int i = 0; i < 200; i++) {
                long start = System.nanoTime();
                assertThat(client.call("PING")).isEqualTo("PONG");
                fastest = Math.min(fastest, System.nanoTime() - start);
            }
            // Each direction waits its 250 us; the fastest of 200 calls shows what the proxy adds beyond that
            // when the machine lets it (a delay rounded up to whole milliseconds would give at least 2 ms).
            assertThat(Duration.ofNanos(fastest)).isGreaterThanOrEqualTo(Duration.ofNanos(500_000))
                    .isLessThan(Duration.ofMillis(1));
        }
    }

    @Test
    void pausingOneLinkStallsItWhileAnotherKeepsWorkingAndResumeDeliversTheHeldCommand() throws Exception {
        try (RespClient stalled = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT);
             RespClient healthy = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            assertThat(stalled.call("PING")).isEqualTo("PONG");
            assertThat(healthy.call("PING")).isEqualTo("PONG");
            List<TcpProxy.Link> links = proxy.awaitLinks(2, Duration.ofSeconds(5));
            TcpProxy.Link first = links.get(0);
            first.pause();

            CompletableFuture<Object> held = CompletableFuture.supplyAsync(() -> call(stalled, "INCR", "n"));
            assertThat(healthy.call("PING")).isEqualTo("PONG");
            assertThat(healthy.call("GET", "n")).as("the paused link's command has not reached Redis").isNull();
            assertThat(held).isNotDone();

            first.resume();
            assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(redis.call("GET", "n")).isEqualTo("1");
        }
    }

    @Test
    void droppedRepliesLeaveTheCommandExecutedButUnanswered() throws IOException {
        proxy.dropReplies();
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), SHORT)) {
            assertThatThrownBy(() -> client.call("INCR", "n")).isInstanceOf(SocketTimeoutException.class);
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(redis.call("GET", "n")).isEqualTo("1"));
    }

    @Test
    void blackholeLosesCommandsAndRepliesAlsoOnNewConnectionsUntilResumed() throws IOException {
        proxy.blackhole();
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), SHORT)) {
            assertThatThrownBy(() -> client.call("INCR", "n")).isInstanceOf(SocketTimeoutException.class);
        }
        assertThat(redis.call("GET", "n")).isNull();
        proxy.resume();
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            assertThat(client.call("INCR", "n")).isEqualTo(1L);
        }
    }

    @Test
    void dropConnectionsEndsOpenLinksAndNewOnesWork() throws IOException {
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            assertThat(client.call("PING")).isEqualTo("PONG");
            proxy.awaitLinks(1, Duration.ofSeconds(5));
            proxy.dropConnections();
            assertThat(proxy.links()).isEmpty();
            assertThatThrownBy(() -> client.call("PING")).isInstanceOf(IOException.class);
        }
        try (RespClient client = RespClient.connect(proxy.host(), proxy.port(), RespClient.DEFAULT_TIMEOUT)) {
            assertThat(client.call("PING")).isEqualTo("PONG");
        }
        assertThat(proxy.acceptedCount()).isEqualTo(2);
    }

    private static Object call(RespClient client, String... args) {
        try {
            return client.call(args);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
