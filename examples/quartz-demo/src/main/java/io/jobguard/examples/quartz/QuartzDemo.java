package io.jobguard.examples.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.RunContext;
import io.jobguard.examples.support.DemoRedis;
import io.jobguard.examples.support.RunLedger;
import io.jobguard.quartz.ClusterSingletonListener;
import io.jobguard.redis.RedisLeaseStore;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.impl.matchers.EverythingMatcher;
import org.quartz.listeners.TriggerListenerSupport;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Three plain Quartz schedulers ({@code RAMJobStore}, as most apps run Quartz on every node) fire
 * the same every-second cron job; one of them is slow (it stalls 2 s before each firing, like an
 * overloaded or skewed node). With job-guard's listener installed in one line per scheduler, each
 * nominal fire time runs once. Usage: {@code QuartzDemo [--seconds N]}; exits 1 on a duplicate.
 */
public final class QuartzDemo implements AutoCloseable {

    static final Queue<String> RUNS = new ConcurrentLinkedQueue<>();

    private final LettuceConnectionFactory redis;
    private final List<Scheduler> schedulers = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    /**
     * Starts the three schedulers against a Redis.
     *
     * @param redisPort the Redis on 127.0.0.1
     * @throws SchedulerException if Quartz cannot start
     */
    public QuartzDemo(int redisPort) throws SchedulerException {
        redis = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redisPort));
        redis.afterPropertiesSet();
        redis.start();
        for (String node : List.of("quartz-A", "quartz-B", "quartz-slow")) {
            Properties props = new Properties();
            props.setProperty("org.quartz.scheduler.instanceName", node);
            props.setProperty("org.quartz.threadPool.threadCount", "2");
            props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
            Scheduler scheduler = new StdSchedulerFactory(props).getScheduler();
            scheduler.getContext().put("node", node);
            if (node.endsWith("slow")) {
                scheduler.getListenerManager().addTriggerListener(new Stall(), EverythingMatcher.allTriggers());
            }
            RedisLeaseStore store = RedisLeaseStore.create(redis);
            JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace("quartz-demo")
                    .node(NodeConfig.builder().nodeId(node).build()).build());
            closeables.add(store);
            closeables.add(guard);

            // README: Quartz
            ClusterSingletonListener.install(scheduler, guard);

            scheduler.scheduleJob(JobBuilder.newJob(ReportJob.class).withIdentity("report", "demo").build(),
                    TriggerBuilder.newTrigger().withIdentity("every-second", "demo")
                            .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?")).build());
            schedulers.add(scheduler);
        }
        for (Scheduler scheduler : schedulers) {
            scheduler.start();
        }
    }

    /**
     * Runs the demo.
     *
     * @param args {@code --seconds N} (default 20)
     * @throws Exception if the demo cannot run
     */
    public static void main(String[] args) throws Exception {
        int seconds = args.length == 2 && "--seconds".equals(args[0]) ? Integer.parseInt(args[1]) : 20;
        int exit;
        try (DemoRedis redis = DemoRedis.start()) {
            System.out.println("Redis: " + redis.source() + ", port " + redis.port());
            Instant from;
            Instant to;
            try (QuartzDemo demo = new QuartzDemo(redis.port())) {
                from = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
                Thread.sleep(seconds * 1000L);
                to = Instant.now().minusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
                demo.stop();
            }
            RunLedger ledger = RunLedger.of(List.copyOf(RUNS));
            System.out.print(ledger.table(from, to, Duration.ofSeconds(1)));
            int duplicates = ledger.duplicates().size();
            int misses = ledger.misses(from, to, Duration.ofSeconds(1)).size();
            System.out.printf("fire times: %d, duplicates: %d, misses: %d%n",
                    Duration.between(from, to).toSeconds() + 1, duplicates, misses);
            exit = duplicates == 0 ? 0 : 1;
        }
        System.exit(exit);
    }

    /**
     * Stops the schedulers, waiting for running jobs.
     *
     * @throws SchedulerException if Quartz fails to stop
     */
    public void stop() throws SchedulerException {
        for (Scheduler scheduler : schedulers) {
            scheduler.shutdown(true);
        }
    }

    @Override
    public void close() throws SchedulerException {
        stop();
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing " + c + " failed", e);
            }
        }
        redis.destroy();
    }

    /** The guarded job: records which node ran which nominal fire time. */
    @ClusterSingleton(lease = "10s")
    public static final class ReportJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            try {
                String node = (String) context.getScheduler().getContext().get("node");
                RUNS.add(RunLedger.entry(RunContext.current().orElseThrow().nominalFireTime(), node));
            } catch (SchedulerException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Makes one node slow: asked before job-guard's listener, it stalls each firing 2 s. */
    static final class Stall extends TriggerListenerSupport {
        @Override
        public String getName() {
            return "stall";
        }

        @Override
        public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
            try {
                Thread.sleep(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }
}
