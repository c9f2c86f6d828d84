package io.jobguard.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.RunContext;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.ChildJvm;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * One Quartz node in a JVM of its own, for {@link QuartzKilledHolderIT}: a RAMJobStore scheduler with the
 * {@link ClusterSingletonListener} on a real Redis and one every-two-seconds cron job, printing for the test
 * ({@link ChildJvm#PREFIX} lines):
 * <ul>
 *   <li>{@code NODE READY <node>} once the scheduler runs;</li>
 *   <li>{@code NODE RUN <node> <fire time ms> <attempt> <retry> <fencing token>} when a job body starts;</li>
 *   <li>{@code NODE HOLDING <node> <fire time ms>} when a body finds the marker file and holds until it is gone;</li>
 *   <li>{@code NODE EVENT <node> <outcome> <fire time ms>} for every outcome the engine reports.</li>
 * </ul>
 * Arguments: Redis port, namespace, node id, the job class's simple name ({@code AtLeastOnce} or
 * {@code AtMostOnce}), the marker file.
 */
public final class KillableQuartzNode {

    private static final String NODE = "node";
    private static final String MARKER = "marker";

    private KillableQuartzNode() {
    }

    /**
     * Starts the node; it runs until killed.
     *
     * @param args Redis port, namespace, node id, job class simple name, marker file
     * @throws Exception if the node cannot start
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String namespace = args[1];
        String node = args[2];
        Class<? extends Job> jobClass = switch (args[3]) {
            case "AtLeastOnce" -> AtLeastOnce.class;
            case "AtMostOnce" -> AtMostOnce.class;
            default -> throw new IllegalArgumentException("unknown job " + args[3]);
        };
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1",
                port), LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        JobGuard guard = JobGuard.create(RedisLeaseStore.create(factory),
                JobGuardConfig.builder().namespace(namespace).node(NodeConfig.builder().nodeId(node).build())
                        .skewTolerance(Duration.ofSeconds(2)).build());
        guard.addListener(e -> System.out.println(ChildJvm.PREFIX + "EVENT " + node + " " + e.outcome() + " "
                + e.nominalFireTime().toEpochMilli()));
        Properties props = new Properties();
        props.setProperty("org.quartz.scheduler.instanceName", node);
        props.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        props.setProperty("org.quartz.threadPool.threadCount", "3");
        props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        Scheduler scheduler = new StdSchedulerFactory(props).getScheduler();
        scheduler.getContext().put(NODE, node);
        scheduler.getContext().put(MARKER, args[4]);
        ClusterSingletonListener.install(scheduler, guard);
        scheduler.scheduleJob(JobBuilder.newJob(jobClass).withIdentity("held").build(), TriggerBuilder.newTrigger()
                .withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?")).build());
        scheduler.start();
        System.out.println(ChildJvm.PREFIX + "READY " + node);
    }

    /** Prints its start; holds while the marker file exists. */
    static void hold(JobExecutionContext context) throws JobExecutionException {
        try {
            String node = context.getScheduler().getContext().getString(NODE);
            Path marker = Path.of(context.getScheduler().getContext().getString(MARKER));
            RunContext run = RunContext.current().orElseThrow(() -> new IllegalStateException("no RunContext bound"));
            long t = run.nominalFireTime().toEpochMilli();
            System.out.println(ChildJvm.PREFIX + "RUN " + node + " " + t + " " + run.attempt() + " " + run.isRetry()
                    + " " + run.fencingToken());
            if (Files.exists(marker)) {
                System.out.println(ChildJvm.PREFIX + "HOLDING " + node + " " + t);
                while (Files.exists(marker)) {
                    // the held run: the test kills this JVM while it is here
                    Thread.sleep(20);
                }
            }
        } catch (SchedulerException e) {
            throw new JobExecutionException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Re-runs a fire time whose holder died, once. */
    @ClusterSingleton(lease = "3s", delivery = "AT_LEAST_ONCE")
    public static final class AtLeastOnce implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            hold(context);
        }
    }

    /** AT_MOST_ONCE: a fire time whose holder died is reported ABANDONED and not run again. */
    @ClusterSingleton(lease = "3s", delivery = "AT_MOST_ONCE")
    public static final class AtMostOnce implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            hold(context);
        }
    }
}
