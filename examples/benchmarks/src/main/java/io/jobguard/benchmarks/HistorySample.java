package io.jobguard.benchmarks;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.HistoryFormat;
import io.jobguard.store.RunHistory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;

/**
 * The run history of docs/operations.md ("Run history"), on a Redis the caller runs: {@code fire} runs 48 hourly fire
 * times of the last two days of job {@code nightly-report} (namespace {@code shop}, key prefix {@code jobguard}) in a
 * row from two nodes, one paused, every eleventh throwing; {@code read} prints a page of its failures and the first
 * lines of its CSV export through the plain-Java API. Run: {@code java -cp <benchmarks class path>
 * io.jobguard.benchmarks.HistorySample <port> fire|read}.
 */
public final class HistorySample {

    private HistorySample() {
    }

    /**
     * Fires or reads.
     *
     * @param args the Redis port on 127.0.0.1, then {@code fire} or {@code read}
     * @throws Exception if Redis cannot be reached
     */
    public static void main(String[] args) throws Exception {
        LettuceConnectionFactory f = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])));
        f.afterPropertiesSet();
        f.start();
        String mode = args[1];
        try (RedisLeaseStore store = RedisLeaseStore.create(f, "jobguard")) {
            if (mode.equals("fire")) {
                JobGuard[] nodes = new JobGuard[2];
                for (int n = 0; n < 2; n++) {
                    nodes[n] = JobGuard.create(store, JobGuardConfig.builder().namespace("shop")
                            .node(NodeConfig.builder().nodeId("reports-" + (n + 1) + ":4711").build()).build());
                }
                JobOptions job = JobOptions.builder("nightly-report", Duration.ofMinutes(10)).build();
                Instant first = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(48));
                for (int i = 0; i < 48; i++) {
                    Instant t = first.plus(Duration.ofHours(i));
                    JobGuard node = nodes[i % 2];
                    if (i == 40) {
                        node.pause("nightly-report", "ops@example.com");
                        node.run(job, t, () -> { });
                        node.resume("nightly-report");
                        continue;
                    }
                    final int k = i;
                    try {
                        node.run(job, t, () -> {
                            java.util.concurrent.locks.LockSupport.parkNanos((30 + k % 5 * 10) * 1_000_000L);
                            if (k % 11 == 3) {
                                throw new java.io.UncheckedIOException(new java.io.IOException(
                                        "SFTP upload to reports.example.com failed: connection reset\n\tat line two"));
                            }
                        });
                    } catch (RuntimeException e) {
                        // the job threw: recorded FAILED
                    }
                }
                for (JobGuard g : nodes) {
                    g.close();
                }
            } else {
                try (JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace("shop").build())) {
                    RunHistory.Page page = guard.history("nightly-report", new RunHistory.Query(null, null, Set.of("FAILED"), null), null, 2);
                    page.entries().forEach(System.out::println);
                    System.out.println("next: " + page.next());
                    try (InputStream csv = guard.exportHistory("nightly-report", RunHistory.Query.ALL, HistoryFormat.CSV)) {
                        String text = new String(csv.readAllBytes());
                        text.lines().limit(4).forEach(System.out::println);
                        System.out.println("... " + text.lines().count() + " lines");
                    }
                }
            }
        } finally {
            f.destroy();
        }
    }
}
