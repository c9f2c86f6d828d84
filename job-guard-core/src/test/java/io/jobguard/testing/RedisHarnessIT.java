package io.jobguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Proves the harness does what its Javadoc promises, against real redis-server processes. */
@WithRedis
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisHarnessIT {

    private static final Duration SHORT_TIMEOUT = Duration.ofMillis(500);
    private static final Duration RECOVERY = Duration.ofSeconds(10);

    private final RedisServerProcess redis;

    RedisHarnessIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @Test
    @Order(1)
    void standaloneAnswersPingThroughLettuce() {
        assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
        try (Client client = new Client(redis.connectionFactory())) {
            assertThat(client.connection.ping()).isEqualTo("PONG");
        }
    }

    @Test
    @Order(2)
    void leavesDataAndAPausedServerBehind() {
        try (Client client = new Client(redis.connectionFactory())) {
            client.connection.stringCommands().set(bytes("leftover"), bytes("x"));
        }
        redis.pause();
        assertThat(redis.isPaused()).isTrue();
    }

    @Test
    @Order(3)
    void nextTestGetsAResumedEmptyServer() {
        assertThat(redis.isPaused()).isFalse();
        try (Client client = new Client(redis.connectionFactory(SHORT_TIMEOUT))) {
            assertThat(client.connection.serverCommands().dbSize()).isZero();
        }
    }

    @Test
    @Order(4)
    void leavesAStoppedServerBehind() {
        redis.stop();
        assertThat(redis.isRunning()).isFalse();
        assertThat(FreePorts.isListening(redis.port())).isFalse();
    }

    @Test
    @Order(5)
    void nextTestGetsARestartedServer() {
        assertThat(redis.isRunning()).isTrue();
        try (Client client = new Client(redis.connectionFactory(SHORT_TIMEOUT))) {
            assertThat(client.connection.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void stoppedServerFailsCommandsAndRestartsOnTheSamePort() {
        int port = redis.port();
        try (Client client = new Client(redis.connectionFactory(SHORT_TIMEOUT))) {
            assertThat(client.connection.ping()).isEqualTo("PONG");

            redis.stop();
            assertThat(redis.isRunning()).isFalse();
            assertThat(FreePorts.isListening(port)).isFalse();
            assertThatThrownBy(client.connection::ping).isInstanceOf(DataAccessException.class);

            redis.restart();
            assertThat(redis.port()).isEqualTo(port);
            await().atMost(RECOVERY).untilAsserted(() -> assertThat(client.connection.ping()).isEqualTo("PONG"));
        }
    }

    @Test
    void pausedServerTimesOutUntilResumed() {
        try (Client client = new Client(redis.connectionFactory(SHORT_TIMEOUT))) {
            assertThat(client.connection.ping()).isEqualTo("PONG");

            redis.pause();
            assertThat(redis.isPaused()).isTrue();
            assertThatThrownBy(client.connection::ping).isInstanceOf(QueryTimeoutException.class);

            redis.resume();
            await().atMost(RECOVERY).untilAsserted(() -> assertThat(client.connection.ping()).isEqualTo("PONG"));
        }
    }

    @Test
    void commandStatsCountCommands() {
        redis.resetStats();
        try (Client client = new Client(redis.connectionFactory())) {
            for (int i = 0; i < 3; i++) {
                client.connection.stringCommands().set(bytes("k" + i), bytes("v"));
            }
        }
        Map<String, Long> stats = redis.commandStats();
        assertThat(stats).containsEntry("set", 3L).doesNotContainKey("get");
    }

    @Test
    void endpointIsTheClassServerUnlessAnExternalUrlIsSet(RedisEndpoint endpoint) {
        if (System.getenv(ExternalRedis.URL_ENV) == null) {
            assertThat(endpoint).isSameAs(redis);
        } else {
            assertThat(endpoint).isInstanceOf(ExternalRedis.class);
        }
        try (Client client = new Client(endpoint.connectionFactory())) {
            assertThat(client.connection.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void clusterFormsAndRoutesKeysToAllThreeMasters(RedisClusterProcess cluster) {
        assertThat(cluster.nodes()).hasSize(3).allMatch(node -> node.startsWith("127.0.0.1:"));
        List<String> keys = List.of(keyInSlots(0, 5460), keyInSlots(5461, 10922), keyInSlots(10923, 16383));
        cluster.resetStats();

        LettuceConnectionFactory factory = cluster.connectionFactory();
        try (RedisClusterConnection connection = factory.getClusterConnection()) {
            for (String key : keys) {
                connection.stringCommands().set(bytes(key), bytes("value-of-" + key));
            }
            for (String key : keys) {
                assertThat(connection.stringCommands().get(bytes(key))).asString(StandardCharsets.UTF_8)
                        .isEqualTo("value-of-" + key);
            }
        } finally {
            factory.destroy();
        }

        assertThat(cluster.masters()).allSatisfy(master -> assertThat(master.call("DBSIZE")).isEqualTo(1L));
        assertThat(cluster.commandStats()).containsEntry("set", 3L).containsEntry("get", 3L);
        cluster.flushAll();
        assertThat(cluster.masters()).allSatisfy(master -> assertThat(master.call("DBSIZE")).isEqualTo(0L));
    }

    @Test
    void embeddedBinaryServesAsAFallback() {
        Path binary = RedisBinary.embedded().orElseThrow();
        try (RedisServerProcess embedded = RedisServerProcess.start(binary);
             Client client = new Client(embedded.connectionFactory())) {
            assertThat(embedded.info("server")).contains("executable:" + binary);
            assertThat(client.connection.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void closedServerLeavesNoProcessAndNoOpenPort() {
        RedisServerProcess own = RedisServerProcess.start();
        long pid = own.pid();
        int port = own.port();
        own.pause();

        own.close();

        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        assertThat(FreePorts.isListening(port)).isFalse();
        assertThatThrownBy(own::restart).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void extensionClosesServersAfterTheClassEvenWhenItsTestFails() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(LeakProbe.class))
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LeakProbe.launched = true;
        try {
            LauncherFactory.create().execute(request, listener);
        } finally {
            LeakProbe.launched = false;
        }

        TestExecutionSummary summary = listener.getSummary();
        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException()).hasMessage(LeakProbe.FAILURE);
        assertThat(LeakProbe.pids).hasSize(4).allSatisfy(pid ->
                assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty());
        assertThat(LeakProbe.ports).hasSize(4).noneMatch(FreePorts::isListening);
    }

    private static String keyInSlots(int first, int last) {
        for (int i = 0; ; i++) {
            String key = "key-" + i;
            int slot = ClusterSlotHashUtil.calculateSlot(key);
            if (slot >= first && slot <= last) {
                return key;
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A Lettuce factory and one connection from it, released together. */
    private static final class Client implements AutoCloseable {

        private final LettuceConnectionFactory factory;
        private final RedisConnection connection;

        Client(LettuceConnectionFactory factory) {
            this.factory = factory;
            this.connection = factory.getConnection();
        }

        @Override
        public void close() {
            try {
                connection.close();
            } finally {
                factory.destroy();
            }
        }
    }

    /** Run only through the launcher above: records what the extension started, then fails on purpose. */
    @WithRedis
    @EnabledIf("launchedByHarnessTest")
    static class LeakProbe {

        static final String FAILURE = "fails on purpose";
        static volatile boolean launched;
        static volatile List<Long> pids = List.of();
        static volatile List<Integer> ports = List.of();

        static boolean launchedByHarnessTest() {
            return launched;
        }

        @Test
        void recordsServersThenFails(RedisServerProcess server, RedisClusterProcess cluster) {
            Map<Long, Integer> started = new TreeMap<>();
            started.put(server.pid(), server.port());
            cluster.masters().forEach(master -> started.put(master.pid(), master.port()));
            pids = List.copyOf(started.keySet());
            ports = started.values().stream().collect(Collectors.toUnmodifiableList());
            fail(FAILURE);
        }
    }
}
