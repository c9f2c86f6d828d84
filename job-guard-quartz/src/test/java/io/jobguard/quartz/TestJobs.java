package io.jobguard.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import org.quartz.Job;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.SchedulerException;

/** Job classes the integration tests schedule; Quartz instantiates them, so they are public. */
final class TestJobs {

    private TestJobs() {
    }

    /** Records its run and returns at once. */
    @ClusterSingleton(lease = "10s")
    public static final class Quick implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            Recorder.record(context);
        }
    }

    /** Runs for {@code workMillis} from the JobDataMap; guarded through JobDataMap entries only. */
    public static final class Slow implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            Recorder recorder = Recorder.of(context);
            try {
                recorder.begin(context);
                // simulated work, not a wait for a condition
                Thread.sleep(context.getMergedJobDataMap().getLong("workMillis"));
            } catch (SchedulerException e) {
                throw new JobExecutionException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                recorder.end();
            }
        }
    }

    /** Records each attempt; {@code mode=refire} fails its first attempt asking Quartz to re-execute, {@code mode=fail} always fails. */
    public static final class Flaky implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            Recorder.record(context);
            String mode = context.getMergedJobDataMap().getString("mode");
            if ("refire".equals(mode) && context.getRefireCount() == 0) {
                JobExecutionException failure = new JobExecutionException("first attempt fails");
                failure.setRefireImmediately(true);
                throw failure;
            }
            if ("fail".equals(mode)) {
                throw new JobExecutionException("always fails");
            }
        }
    }

    /**
     * Records each attempt of each fire time in {@link #ATTEMPTS} ({@code node|fire time|attempt|fencing token}) and
     * throws on attempts 1 and 2, wherever they run; guarded and retried through JobDataMap entries.
     */
    public static final class FailsTwice implements Job {
        static final java.util.List<String> ATTEMPTS = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            io.jobguard.RunContext run = io.jobguard.RunContext.current().orElseThrow();
            String node;
            try {
                node = String.valueOf(context.getScheduler().getContext().get(Recorder.NODE));
            } catch (SchedulerException e) {
                throw new JobExecutionException(e);
            }
            ATTEMPTS.add(node + "|" + run.nominalFireTime() + "|" + run.attempt() + "|" + run.fencingToken());
            if (run.attempt() <= 2) {
                throw new JobExecutionException("attempt " + run.attempt() + " fails on purpose");
            }
        }
    }

    /** A WAIT job named explicitly through the annotation. */
    @ClusterSingleton(name = "annotated-wait", type = GuardType.WAIT, lease = "7s", waitFor = "3s", busyGrace = "300ms",
            keepAlive = false)
    public static final class AnnotatedWait implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            // only its guard options are read in the tests
        }
    }

    /** Not annotated: guarded only by a matcher or JobDataMap entries. */
    public static final class Plain implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            // only its guard options are read in the tests
        }
    }
}
