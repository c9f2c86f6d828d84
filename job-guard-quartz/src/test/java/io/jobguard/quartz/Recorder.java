package io.jobguard.quartz;

import io.jobguard.RunContext;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.SchedulerException;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** What the test jobs saw, across every node of one test: which node ran which fire time, and overlaps. */
final class Recorder {

    static final String KEY = "recorder";
    static final String NODE = "node";

    /** One started job body. */
    record Run(String node, Instant nominal, Instant scheduled, Instant started, long fence, Object contextFence) {
    }

    final Map<Instant, List<String>> nodesByFireTime = new ConcurrentHashMap<>();
    final List<Run> runs = new CopyOnWriteArrayList<>();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger maxRunning = new AtomicInteger();

    static Recorder of(JobExecutionContext context) {
        try {
            return (Recorder) context.getScheduler().getContext().get(KEY);
        } catch (SchedulerException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Records the start of a body; returns the run. */
    Run begin(JobExecutionContext context) throws SchedulerException {
        int now = running.incrementAndGet();
        maxRunning.accumulateAndGet(now, Math::max);
        String node = (String) context.getScheduler().getContext().get(NODE);
        RunContext run = RunContext.current().orElseThrow(() -> new IllegalStateException("no RunContext bound"));
        Run r = new Run(node, run.nominalFireTime(), context.getScheduledFireTime().toInstant(), Instant.now(),
                run.fencingToken(), context.get(ClusterSingletonListener.FENCING_TOKEN_KEY));
        runs.add(r);
        nodesByFireTime.computeIfAbsent(r.nominal(), t -> new CopyOnWriteArrayList<>()).add(node);
        return r;
    }

    void end() {
        running.decrementAndGet();
    }

    /**
     * Records a job body that begins and ends at once, with the recorder of the context's scheduler.
     *
     * @throws JobExecutionException wrapping a scheduler that cannot be read
     */
    static void record(JobExecutionContext context) throws JobExecutionException {
        try {
            Recorder recorder = of(context);
            recorder.begin(context);
            recorder.end();
        } catch (SchedulerException e) {
            throw new JobExecutionException(e);
        }
    }
}
