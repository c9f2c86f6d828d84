package io.jobguard.testing;

import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A Redis master with one replica, watched by one Sentinel: what an application reaches through
 * spring-data-redis's {@link RedisSentinelConfiguration}.
 *
 * <p>Guarantees: when {@link #start()} returns, the replica's link to the master is up and Sentinel
 * knows both; {@link #failOver()} returns once Sentinel names the former replica as master and that
 * server accepts writes; {@link #close()} kills all three processes and is idempotent.
 */
public final class RedisSentinelProcess implements AutoCloseable {

    /** The master name clients ask Sentinel for. */
    public static final String MASTER_NAME = "jgmaster";
    private static final Duration TOPOLOGY_TIMEOUT = Duration.ofSeconds(20);

    private final RedisServerProcess first;
    private final RedisServerProcess second;
    private final RedisServerProcess sentinel;

    private RedisSentinelProcess(RedisServerProcess first, RedisServerProcess second, RedisServerProcess sentinel) {
        this.first = first;
        this.second = second;
        this.sentinel = sentinel;
    }

    /**
     * Starts master, replica and Sentinel with the binary chosen by {@link RedisBinary#executable()}.
     *
     * @return the running setup
     * @throws IllegalStateException if a process does not come up or the topology does not form in time
     */
    public static RedisSentinelProcess start() {
        Path executable = RedisBinary.executable();
        RedisServerProcess master = RedisServerProcess.start(executable);
        RedisServerProcess replica = null;
        RedisServerProcess sentinel = null;
        try {
            replica = RedisServerProcess.start(executable, FreePorts::any,
                    port -> List.of("--replicaof", FreePorts.LOOPBACK, Integer.toString(master.port())));
            RedisServerProcess r = replica;
            require(() -> ((String) r.call("INFO", "replication")).contains("master_link_status:up"),
                    "the replica's link to the master is not up", r);
            sentinel = RedisServerProcess.startSentinel(executable, MASTER_NAME, master.port());
            RedisSentinelProcess setup = new RedisSentinelProcess(master, replica, sentinel);
            require(() -> setup.sentinelCall("SENTINEL", "REPLICAS", MASTER_NAME) instanceof List<?> l && !l.isEmpty(),
                    "Sentinel does not know the replica", sentinel);
            return setup;
        } catch (RuntimeException e) {
            for (RedisServerProcess p : new RedisServerProcess[] {sentinel, replica, master}) {
                if (p != null) {
                    p.close();
                }
            }
            throw e;
        }
    }

    /**
     * The server Sentinel currently names as master.
     *
     * @return the master's process
     */
    public RedisServerProcess master() {
        Object reply = sentinelCall("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
        if (reply instanceof List<?> address && address.size() == 2) {
            int port = Integer.parseInt(String.valueOf(address.get(1)));
            if (port == first.port()) {
                return first;
            }
            if (port == second.port()) {
                return second;
            }
        }
        throw new IllegalStateException("Sentinel names no known master: " + reply);
    }

    /**
     * The server Sentinel currently does not name as master: the replica.
     *
     * @return the replica's process
     */
    public RedisServerProcess replica() {
        return master() == first ? second : first;
    }

    /** Promotes the replica with {@code SENTINEL FAILOVER} and waits until it is the writable master. */
    public void failOver() {
        RedisServerProcess old = master();
        RedisServerProcess next = old == first ? second : first;
        sentinel.call("SENTINEL", "FAILOVER", MASTER_NAME);
        require(() -> master() == next && ((String) next.call("INFO", "replication")).contains("role:master"),
                "Sentinel did not promote " + next, sentinel);
    }

    /** Deletes every key on the current master (the replica follows). */
    public void flushAll() {
        master().flushAll();
    }

    /**
     * A started Lettuce connection factory that finds the master through Sentinel.
     *
     * @return the factory; the caller destroys it
     */
    public LettuceConnectionFactory connectionFactory() {
        RedisSentinelConfiguration config = new RedisSentinelConfiguration().master(MASTER_NAME);
        config.addSentinel(new RedisNode(sentinel.host(), sentinel.port()));
        return ConnectionFactories.sentinel(config, Duration.ofSeconds(5));
    }

    private Object sentinelCall(String... args) {
        return sentinel.call(args);
    }

    private static void require(BooleanSupplier condition, String failure, RedisServerProcess logOf) {
        if (!Poll.until(TOPOLOGY_TIMEOUT, () -> {
            try {
                return condition.getAsBoolean();
            } catch (RuntimeException e) {
                return false;
            }
        })) {
            throw new IllegalStateException(failure + " within " + TOPOLOGY_TIMEOUT.toSeconds() + " s; log of "
                    + logOf + ":\n" + logOf.log());
        }
    }

    @Override
    public void close() {
        sentinel.close();
        second.close();
        first.close();
    }

    @Override
    public String toString() {
        return "RedisSentinelProcess[sentinel=" + sentinel.uri() + ", servers=" + first.uri() + ", " + second.uri()
                + "]";
    }
}
