package io.jobguard.quartz;

import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retries on Quartz, real Redis and two running scheduler instances: a job whose runs throw on attempts 1 and 2, with
 * {@code jobguard.attempts = 3} and a 500 ms back-off in its JobDataMap. Each node's recovery pass runs the due attempt
 * (the node whose run failed passes over the job at once, then at the due time), so the fire time ends with attempt 3,
 * each attempt run once in the cluster with a growing fencing token, and the job's history lists the three.
 */
@WithRedis
class QuartzRetryIT {

    private final RedisServerProcess redis;
    private final List<QuartzNode> nodes = new ArrayList<>();

    QuartzRetryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
    }

    @Test
    void aFireTimeThatFailsTwiceEndsWithItsThirdAttemptEachRunOnceInTheCluster() throws Exception {
        TestJobs.FailsTwice.ATTEMPTS.clear();
        String namespace = "quartz-retry";
        for (String name : List.of("a", "b")) {
            QuartzNode node = QuartzNode.builder(name, redis, namespace).skewTolerance(Duration.ofSeconds(5)).build();
            nodes.add(node);
            node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.FailsTwice.class).withIdentity("export")
                    .usingJobData(ClusterSingletonListener.ENABLED, "true")
                    .usingJobData("jobguard.attempts", "3")
                    .usingJobData("jobguard.retryBackoff", "500ms")
                    .usingJobData("jobguard.retryMultiplier", "1")
                    .usingJobData("jobguard.retryJitter", "0").build(),
                    TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder.cronSchedule("*/15 * * * * ?")
                            .inTimeZone(TimeZone.getTimeZone("UTC"))).build());
            node.scheduler.start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> TestJobs.FailsTwice.ATTEMPTS.stream()
                .anyMatch(a -> a.endsWith("|3|" + a.split("\\|")[3])));
        String fireTime = TestJobs.FailsTwice.ATTEMPTS.stream().filter(a -> a.split("\\|")[2].equals("3"))
                .findFirst().orElseThrow().split("\\|")[1];
        // another pass would run an attempt twice within a second if it could
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> ofFireTime(fireTime).size() == 3);

        List<String[]> attempts = ofFireTime(fireTime);
        assertThat(attempts).extracting(a -> a[2]).containsExactly("1", "2", "3");
        assertThat(attempts).extracting(a -> Long.parseLong(a[3])).isSortedAccordingTo(Comparator.naturalOrder())
                .doesNotHaveDuplicates();
        List<JobEvent> ended = nodes.stream().flatMap(n -> n.events.stream())
                .filter(e -> e.nominalFireTime().toString().equals(fireTime) && e.outcome().bodyStarted())
                .sorted(Comparator.comparingInt(JobEvent::attempt)).toList();
        assertThat(ended).extracting(JobEvent::outcome)
                .containsExactly(RunOutcome.RETRY_PENDING, RunOutcome.RETRY_PENDING, RunOutcome.RAN);
        List<RunHistory.FireEntry> history = ((RunHistory) nodes.get(0).guard.store())
                .fireHistory(new JobId(namespace, "DEFAULT.export"), 20).stream()
                .filter(e -> e.nominalFireTime().toString().equals(fireTime)).toList();
        assertThat(history).extracting(RunHistory.FireEntry::attempt).containsExactly(3, 2, 1);
        assertThat(history).extracting(RunHistory.FireEntry::outcome)
                .containsExactly("RAN", "RETRY_PENDING", "RETRY_PENDING");
    }

    private static List<String[]> ofFireTime(String fireTime) {
        return TestJobs.FailsTwice.ATTEMPTS.stream().map(a -> a.split("\\|")).filter(a -> a[1].equals(fireTime))
                .toList();
    }
}
