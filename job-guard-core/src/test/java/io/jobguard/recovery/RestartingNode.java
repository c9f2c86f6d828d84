package io.jobguard.recovery;

import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.JobPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.MissedFireTimes;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.redis.RedisLeaseStore;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A node in its own JVM for {@link ClusterRestartIT}, wired the way the Spring Boot adapter wires a job that
 * recovers missed fire times: a scheduler thread fires an every-second job by the node's own clock (offset from
 * the system clock) through {@link MissedFireTimes#admit}, taking the next grid point after the later of the last
 * fire time and now (as Spring's cron trigger does), and a background thread runs {@link MissedFireTimes#recover}
 * at start and again when {@link MissedFireTimes#pendingUntil} says, at least every minute. On SIGTERM it stops
 * both threads after their current call (a graceful shutdown) and closes the engine.
 *
 * <p>It appends to its ledger, one line per event, tab-separated: {@code READY <node>},
 * {@code START <fire time millis> <node> <regular|catch-up>} when the job's body starts, {@code <outcome> <fire time
 * millis> <node>} for every outcome its listeners hear (MISSED among them) and {@code STOPPED <node>}.
 * Arguments: redis port, node id, clock offset millis, skew tolerance millis, job name, ledger path, misfire
 * policy, catch-up max.
 */
public final class RestartingNode {

    private static final FireTimeSchedule EVERY_SECOND = after -> Instant.ofEpochMilli(
            Math.floorDiv(after.toEpochMilli(), 1000) * 1000 + 1000);

    private final FileChannel ledger;
    private volatile boolean stopping;

    private RestartingNode(Path ledger) throws IOException {
        this.ledger = FileChannel.open(ledger, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    public static void main(String[] args) throws Exception {
        String node = args[1];
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])));
        factory.afterPropertiesSet();
        factory.start();
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(Long.parseLong(args[2])));
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgrestart");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.custom().nodeId(node)
                .skewTolerance(Duration.ofMillis(Long.parseLong(args[3]))).clock(clock).build());
        RestartingNode self = new RestartingNode(Path.of(args[5]));
        guard.addListener(event -> self.append(event.outcome() + "\t" + event.nominalFireTime().toEpochMilli() + "\t"
                + node));
        JobOptions job = JobOptions.of(args[4], Duration.ofSeconds(10));
        RecoveryOptions recovery = new RecoveryOptions(MisfirePolicy.valueOf(args[6]), Duration.ofMinutes(5),
                Integer.parseInt(args[7]), Delivery.AT_MOST_ONCE, 3, EVERY_SECOND);
        MissedFireTimes missed = new MissedFireTimes(guard);
        Runnable body = () -> {
            RunContext run = RunContext.current().orElseThrow();
            self.append("START\t" + run.nominalFireTime().toEpochMilli() + "\t" + node + "\t"
                    + (run.isCatchUp() ? "catch-up" : "regular"));
            self.pause(50);
        };
        Thread scheduler = new Thread(() -> self.schedule(clock, missed, job, recovery, body), "scheduler");
        Thread background = new Thread(() -> self.sweep(clock, missed, job, recovery, body), "job-guard-recovery");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            self.stopping = true;
            join(scheduler);
            join(background);
            guard.close();
            store.close();
            factory.destroy();
            self.append("STOPPED\t" + node);
        }));
        self.append("READY\t" + node);
        background.start();
        scheduler.start();
    }

    private void schedule(Clock clock, MissedFireTimes missed, JobOptions job, RecoveryOptions recovery,
                          Runnable body) {
        Instant next = EVERY_SECOND.next(clock.instant());
        while (true) {
            Instant due = next;
            if (!waitUntil(() -> !clock.instant().isBefore(due))) {
                return;
            }
            Admission admission = missed.admit(job, recovery, due, body);
            if (admission.granted()) {
                try (JobPermit permit = admission.permit()) {
                    body.run();
                    permit.finish(null);
                }
            }
            Instant now = clock.instant();
            next = EVERY_SECOND.next(now.isAfter(due) ? now : due);
        }
    }

    private void sweep(Clock clock, MissedFireTimes missed, JobOptions job, RecoveryOptions recovery, Runnable body) {
        while (!stopping) {
            missed.recover(job, recovery, body);
            Instant wake = clock.instant().plusSeconds(60);
            Optional<Instant> pending = missed.pendingUntil(job, recovery);
            Instant until = pending.filter(p -> p.isBefore(wake)).orElse(wake);
            waitUntil(() -> !clock.instant().isBefore(until));
        }
    }

    /** Waits until the condition holds (true) or the node stops (false). */
    private boolean waitUntil(BooleanSupplier condition) {
        while (!stopping) {
            if (condition.getAsBoolean()) {
                return true;
            }
            pause(10);
        }
        return false;
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void append(String line) {
        try {
            ledger.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            ledger.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
