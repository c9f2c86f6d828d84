package io.jobguard.recovery;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RetryPolicy;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunRecord;
import io.jobguard.testing.RedisServerProcess;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * Engines of the retry tests, each on its own connection to one real Redis under one key prefix, with what they did:
 * every event of every node and every attempt a body started.
 */
final class RetryNodes {

    private final RedisServerProcess redis;
    private final String prefix;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    /** Every event of every node. */
    final List<JobEvent> events = new CopyOnWriteArrayList<>();
    /** Every attempt a body started, on any node: {@code node|attempt|token}. */
    final List<String> attempts = new CopyOnWriteArrayList<>();
    private RedisLeaseStore reader;

    RetryNodes(RedisServerProcess redis, String prefix) {
        this.redis = redis;
        this.prefix = prefix;
    }

    /** A node on its own connection, configured by {@code config} beyond its id. */
    JobGuard node(String id, UnaryOperator<JobGuardConfig.Builder> config) {
        LettuceConnectionFactory factory = redis.connectionFactory(Duration.ofSeconds(2));
        factories.add(factory);
        RedisLeaseStore store = RedisLeaseStore.create(factory, prefix);
        reader = store;
        JobGuard guard = JobGuard.create(store, config.apply(JobGuardConfig.builder()
                .node(NodeConfig.builder().nodeId(id).build())).build());
        guard.addListener(events::add);
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    /** The store of the last node, to read what Redis holds. */
    RedisLeaseStore reader() {
        return reader;
    }

    static JobOptions job(String name, RetryPolicy retry) {
        return JobOptions.builder(name, Duration.ofSeconds(10)).retry(retry).build();
    }

    /** A body that fails its first {@code failures} attempts, wherever they run, and records each attempt. */
    Runnable failingFirst(int failures, String node) {
        return () -> {
            RunContext run = RunContext.current().orElseThrow();
            attempts.add(node + "|" + run.attempt() + "|" + run.fencingToken());
            if (run.attempt() <= failures) {
                throw new IllegalStateException("attempt " + run.attempt() + " fails on purpose");
            }
        };
    }

    /** A regular firing on {@code node}: its outcome (what the body throws is reported, then rethrown by run()). */
    RunOutcome fire(JobGuard node, JobOptions job, Instant t, Runnable body) {
        try {
            return node.run(job, t, body);
        } catch (RuntimeException e) {
            List<RunOutcome> seen = outcomes(job.name());
            return seen.get(seen.size() - 1);
        }
    }

    List<RunOutcome> outcomes(String job) {
        return events.stream().filter(e -> e.job().equals(job)).map(JobEvent::outcome).toList();
    }

    List<RunHistory.FireEntry> history(String job) {
        return reader.fireHistory(new JobId("default", job), 20);
    }

    RunRecord record(String job) {
        return reader.runRecord(new JobId("default", job)).orElseThrow();
    }

    /** The fencing token of an entry of {@link #attempts}. */
    static long token(String attempt) {
        return Long.parseLong(attempt.split("\\|")[2]);
    }

    /** Closes every node, its store and its connection. */
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        factories.forEach(LettuceConnectionFactory::destroy);
    }
}
