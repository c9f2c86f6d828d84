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
