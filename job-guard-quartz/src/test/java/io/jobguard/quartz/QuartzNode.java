package io.jobguard.quartz;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerListener;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.impl.matchers.EverythingMatcher;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One simulated cluster node: its own Redis connection, its own JobGuard and its own RAMJobStore
 * Quartz scheduler (a distinct instance name), with the job-guard listener installed.
 */
final class QuartzNode implements AutoCloseable {

    final String name;
    final Scheduler scheduler;
    final JobGuard guard;
    final ClusterSingletonListener listener;
    final List<JobEvent> events = new CopyOnWriteArrayList<>();
    private final LettuceConnectionFactory connectionFactory;

    private QuartzNode(Builder b) throws SchedulerException {
        this.name = b.name;
        this.connectionFactory = b.redis.connectionFactory(Duration.ofSeconds(2));
        this.guard = JobGuard.create(RedisLeaseStore.create(connectionFactory),
                JobGuardConfig.builder().namespace(b.namespace).node(NodeConfig.builder().nodeId(b.name).build())
                        .defaultLease(Duration.ofSeconds(10))
                        .skewTolerance(b.skewTolerance).build());
        guard.addListener(events::add);
        Properties props = new Properties();
        // SchedulerRepository is JVM-wide and keyed by instance name: each node needs its own
        props.setProperty("org.quartz.scheduler.instanceName", b.name + "-" + UUID.randomUUID());
        props.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        props.setProperty("org.quartz.threadPool.threadCount", Integer.toString(b.threads));
        props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        props.setProperty("org.quartz.jobStore.misfireThreshold", Long.toString(b.misfireThreshold.toMillis()));
        this.scheduler = new StdSchedulerFactory(props).getScheduler();
        scheduler.getContext().put(Recorder.NODE, b.name);
        if (b.recorder != null) {
            scheduler.getContext().put(Recorder.KEY, b.recorder);
        }
        if (b.before != null) {
            scheduler.getListenerManager().addTriggerListener(b.before, EverythingMatcher.allTriggers());
        }
        this.listener = ClusterSingletonListener.install(scheduler, guard);
    }

    static Builder builder(String name, RedisServerProcess redis, String namespace) {
        return new Builder(name, redis, namespace);
    }

    long count(RunOutcome outcome) {
        return events.stream().filter(e -> e.outcome() == outcome).count();
    }

    @Override
    public void close() throws SchedulerException {
        try {
            scheduler.shutdown(true);
        } finally {
            guard.close();
            connectionFactory.destroy();
        }
    }

    static final class Builder {
        private final String name;
        private final RedisServerProcess redis;
        private final String namespace;
        private int threads = 3;
        private Duration misfireThreshold = Duration.ofSeconds(60);
        private Duration skewTolerance = Duration.ofMinutes(5);
        private TriggerListener before;
        private Recorder recorder;

        private Builder(String name, RedisServerProcess redis, String namespace) {
            this.name = name;
            this.redis = redis;
            this.namespace = namespace;
        }

        Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        /** The engine's skew tolerance, which is also how long fire times are refused after Redis lost its data. */
        Builder skewTolerance(Duration tolerance) {
            this.skewTolerance = tolerance;
            return this;
        }

        Builder misfireThreshold(Duration threshold) {
            this.misfireThreshold = threshold;
            return this;
        }

        /** A trigger listener that Quartz calls before job-guard's. */
        Builder before(TriggerListener listener) {
            this.before = listener;
            return this;
        }

        Builder recorder(Recorder recorder) {
            this.recorder = recorder;
            return this;
        }

        QuartzNode build() throws SchedulerException {
            return new QuartzNode(this);
        }
    }
}
