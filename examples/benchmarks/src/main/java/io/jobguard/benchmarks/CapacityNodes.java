package io.jobguard.benchmarks;

import io.jobguard.FiringBody;
import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static io.jobguard.benchmarks.CapacityBenchmark.JOB_GUARD;
import static io.jobguard.benchmarks.CapacityBenchmark.JOB_GUARD_ASK_ALL;
import static io.jobguard.benchmarks.CapacityBenchmark.REDISSON;
import static io.jobguard.benchmarks.CapacityBenchmark.SHEDLOCK;

/** The simulated nodes of {@link CapacityBenchmark}: one per contender, each with its own client, as one JVM has. */
final class CapacityNodes {

    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(30);

    /** A winner that released at once (job-guard's permit is finished when it is granted). */
    private static final Runnable RELEASED = () -> { };

    private CapacityNodes() {
    }

    /** One simulated node of one contender: its own client and connections, as one JVM has. */
    interface Node {
        /**
         * Asks for job {@code job}'s fire time {@code nominalFireTimeMillis} (epoch millis, this step's).
         *
         * @return null if another node has it; else what the winner runs once every node has asked
         */
        Runnable fire(int job, long nominalFireTimeMillis) throws Exception;

        /** job-guard's outcomes on this node other than RAN and ASSIGNED_ELSEWHERE so far, with how often (why a run failed). */
        default Map<String, Long> otherOutcomes() {
            return Map.of();
        }

        void close();
    }

    static Node node(String contender, CapacityBenchmark.Target target, String nodeId, int jobs, StepSchedule schedule) {
        return switch (contender) {
            case JOB_GUARD -> jobGuardNode(target, nodeId, jobs, schedule, true);
            case JOB_GUARD_ASK_ALL -> jobGuardNode(target, nodeId, jobs, schedule, false);
            case SHEDLOCK -> shedLockNode(target, jobs);
            case REDISSON -> redissonNode(target, jobs);
            default -> throw new IllegalArgumentException(contender);
        };
    }

    /**
     * A job-guard node: each firing is {@link io.jobguard.JobGuard#fire} with an empty body, as a scheduler's is, for
     * jobs on the walk's grid ({@link StepSchedule}) declared to the engine; with the spread on, a node not assigned a
     * job leaves its fire times to the assigned node ({@code ASSIGNED_ELSEWHERE}, no Redis call).
     */
    private static Node jobGuardNode(CapacityBenchmark.Target target, String nodeId, int jobs, StepSchedule schedule,
                                     boolean spread) {
        GuardNode node = new GuardNode(target.spring(), spread ? "capacity" : "capacity-ask-all", nodeId,
                FleetBenchmark.SKEW_TOLERANCE, spread);
        List<JobOptions> options = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            options.add(JobOptions.builder((spread ? "job-" : "ask-all-job-") + j, LEASE).keepAlive(false)
                    .recovery(RecoveryOptions.builder().schedule(schedule).build()).build());
        }
        node.guard().declareScheduledJobs(options);
        Map<String, Long> others = new ConcurrentHashMap<>();
        node.guard().addListener(e -> {
            if (e.outcome() != RunOutcome.RAN && e.outcome() != RunOutcome.ASSIGNED_ELSEWHERE) {
                others.merge(e.outcome().name(), 1L, Long::sum);
            }
        });
        FiringBody<Object> empty = FiringBody.of(() -> null);
        return new Node() {
            @Override
            public Map<String, Long> otherOutcomes() {
                return Map.copyOf(others);
            }

            @Override
            public Runnable fire(int job, long nominalFireTimeMillis) throws Exception {
                try {
                    return node.guard().fire(options.get(job), Instant.ofEpochMilli(nominalFireTimeMillis), empty)
                            .started() ? RELEASED : null;
                } catch (Exception | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {
                node.close();
            }
        };
    }

    private static Node shedLockNode(CapacityBenchmark.Target target, int jobs) {
        LettuceConnectionFactory factory = BenchRedis.springFactory(target.spring());
        RedisLockProvider provider = new RedisLockProvider.Builder(factory).environment("capacity").build();
        return new Node() {
            @Override
            public Runnable fire(int job, long nominalFireTimeMillis) {
                Optional<SimpleLock> lock = provider.lock(new LockConfiguration(Instant.now(), "job-" + job, LOCK_AT_MOST_FOR,
                        Duration.ZERO));
                return lock.<Runnable>map(l -> l::unlock).orElse(null);
            }

            @Override
            public void close() {
                factory.destroy();
            }
        };
    }

    private static Node redissonNode(CapacityBenchmark.Target target, int jobs) {
        Config config = new Config();
        // Two Netty threads, as Lettuce runs two I/O threads per client here: the client core is shared by every node
        config.setNettyThreads(2);
        config.setThreads(2);
        target.redisson().accept(config);
        RedissonClient redisson = Redisson.create(config);
        RLock[] locks = new RLock[jobs];
        for (int j = 0; j < jobs; j++) {
            locks[j] = redisson.getLock("capacity-job-" + j);
        }
        return new Node() {
            @Override
            public Runnable fire(int job, long nominalFireTimeMillis) throws InterruptedException {
                RLock lock = locks[job];
                return lock.tryLock(0, LOCK_AT_MOST_FOR.toSeconds(), TimeUnit.SECONDS) ? lock::unlock : null;
            }

            @Override
            public void close() {
                redisson.shutdown();
            }
        };
    }
}
