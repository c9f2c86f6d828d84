package io.jobguard.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Checks, once at startup, that Redis will not evict job-guard's keys: an evicted fire-time marker
 * or lease lets a fire time run twice or two runs overlap. Reads {@code maxmemory-policy} and
 * {@code maxmemory} with {@code CONFIG GET} (on Redis Cluster from every node) and decides:
 * <ul>
 *   <li>{@code noeviction}: fine;</li>
 *   <li>{@code allkeys-*} with a {@code maxmemory} limit: every key may be evicted, so
 *       {@link Mode#FAIL} throws {@link IllegalStateException} naming the policy and the fix
 *       ({@link Mode#WARN} logs it at WARN);</li>
 *   <li>{@code allkeys-*} without a limit ({@code maxmemory 0}), or {@code volatile-*}: WARN.
 *       Without a limit nothing is evicted until someone sets one; under {@code volatile-*} the
 *       keys that carry a TTL (leases, fire-time markers, cool-downs, batch records) may be
 *       evicted, the keys without one (fencing counters, epochs) are not;</li>
 *   <li>{@code CONFIG} not allowed (ACL, renamed command, managed Redis): one INFO saying the
 *       check was skipped; Redis unreachable: one WARN.</li>
 * </ul>
 * The epoch of each job still catches an eviction the check let pass (see {@link RedisLeaseStore}).
 */
public final class RedisEvictionCheck {

    private static final Logger log = LoggerFactory.getLogger(RedisEvictionCheck.class);

    /** What the check does when the policy may evict every key. */
    public enum Mode {
        /** Refuse to start: throw {@link IllegalStateException}. */
        FAIL,
        /** Log at WARN and start. */
        WARN,
        /** Do not check. */
        OFF
    }

    /** What the check found. */
    public enum Verdict {
        /** {@code noeviction} on every node. */
        SAFE,
        /** A policy that may evict job-guard's keys was found and logged at WARN. */
        WARNED,
        /** A policy that evicts any key under a memory limit was found (and, in FAIL mode, refused). */
        UNSAFE,
        /** The policy could not be read (CONFIG not allowed, Redis unreachable) or the check is off. */
        UNKNOWN
    }

    private RedisEvictionCheck() {
    }

    /**
     * Runs the check.
     *
     * @param connectionFactory the Redis job-guard uses
     * @param mode              FAIL, WARN or OFF
     * @param fix               how to turn the check off or down, for the message (for example
     *                          {@code jobguard.redis.eviction-check=warn})
     * @return what was found
     * @throws IllegalStateException in FAIL mode when Redis may evict any key under a memory limit
     */
    public static Verdict check(RedisConnectionFactory connectionFactory, Mode mode, String fix) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        Objects.requireNonNull(mode, "mode");
        if (mode == Mode.OFF) {
            return Verdict.UNKNOWN;
        }
        Map<String, String> policies = new TreeMap<>();
        Map<String, String> limits = new TreeMap<>();
        try (RedisConnection c = connectionFactory.getConnection()) {
            read(c.serverCommands().getConfig("maxmemory*"), policies, limits);
        } catch (DataAccessResourceFailureException e) {
            log.warn("job-guard: could not check Redis maxmemory-policy (Redis unreachable: {}); job-guard needs "
                    + "maxmemory-policy noeviction", e.getMessage());
            return Verdict.UNKNOWN;
        } catch (RuntimeException e) {
            log.info("job-guard: Redis maxmemory-policy check skipped: CONFIG GET is not allowed here ({}); make sure "
                    + "the policy is noeviction, or job-guard's keys may be evicted", e.getMessage());
            return Verdict.UNKNOWN;
        }
        if (policies.isEmpty()) {
            log.info("job-guard: Redis maxmemory-policy check skipped: CONFIG GET returned no maxmemory-policy; make "
                    + "sure the policy is noeviction");
            return Verdict.UNKNOWN;
        }
        Verdict verdict = Verdict.SAFE;
        for (Map.Entry<String, String> e : policies.entrySet()) {
            String node = e.getKey();
            String policy = e.getValue().toLowerCase(Locale.ROOT);
            boolean limited = !"0".equals(limits.getOrDefault(node, "0").trim());
            String where = node.isEmpty() ? "" : " on " + node;
            if (policy.startsWith("allkeys-") && limited) {
                String message = "Redis" + where + " has maxmemory-policy " + policy + " with maxmemory "
                        + limits.get(node) + ": it may evict job-guard's fire-time markers, leases and epochs, which "
                        + "lets fire times run twice. Set maxmemory-policy noeviction (CONFIG SET maxmemory-policy "
                        + "noeviction, and in redis.conf), or use a Redis of its own for job-guard";
                if (mode == Mode.FAIL) {
                    throw new IllegalStateException(message + "; to start anyway set " + fix);
                }
                log.warn("job-guard: {}", message);
                verdict = Verdict.UNSAFE;
            } else if (policy.startsWith("allkeys-")) {
                log.warn("job-guard: Redis{} has maxmemory-policy {} but no maxmemory limit: nothing is evicted now, "
                        + "but once a limit is set any job-guard key may be; use noeviction", where, policy);
                verdict = verdict == Verdict.UNSAFE ? verdict : Verdict.WARNED;
            } else if (policy.startsWith("volatile-")) {
                log.warn("job-guard: Redis{} has maxmemory-policy {}: keys with a TTL may be evicted under memory "
                        + "pressure, and job-guard's leases and fire-time markers have one (an evicted marker lets a "
                        + "fire time run twice); use noeviction", where, policy);
                verdict = verdict == Verdict.UNSAFE ? verdict : Verdict.WARNED;
            } else {
                log.debug("job-guard: Redis{} maxmemory-policy {}", where, policy);
            }
        }
        return verdict;
    }

    /** Splits CONFIG GET's answer by node: on Cluster the keys are prefixed with the node's address. */
    private static void read(Properties config, Map<String, String> policies, Map<String, String> limits) {
        if (config == null) {
            return;
        }
        for (String name : config.stringPropertyNames()) {
            String value = config.getProperty(name);
            if (name.endsWith("maxmemory-policy")) {
                policies.put(node(name, "maxmemory-policy"), value);
            } else if (name.endsWith("maxmemory")) {
                limits.put(node(name, "maxmemory"), value);
            }
        }
    }

    private static String node(String name, String suffix) {
        String node = name.substring(0, name.length() - suffix.length());
        return node.endsWith(".") ? node.substring(0, node.length() - 1) : node;
    }
}
