package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.redis.FleetLeadsClock;
import io.jobguard.redis.RedisLeaseStore;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A node in its own JVM for {@link ClusterRestartIT} and {@code LossHardCasesMultiJvmIT}, wired the way the Spring Boot adapter wires a job that
 * recovers missed fire times: a scheduler thread fires an every-second job by the node's own clock (offset from
 * the system clock) through {@link MissedFireTimeRecovery#admit}, taking the next grid point after the later of the last
 * fire time and now (as Spring's cron trigger does), and a background thread runs {@link MissedFireTimeRecovery#recover}
 * at start and again when {@link MissedFireTimeRecovery#pendingUntil} says, at least every minute. On SIGTERM it stops
 * both threads after their current call (a graceful shutdown) and closes the engine.
 *
 * <p>With the misfire policy {@code NONE} it fires the job the plain way instead ({@link JobGuard#admit}, no
 * recovery thread): an every-second {@code RETURN} job with job-guard's defaults.
 *
 * <p>It appends to its ledger, one line per event, tab-separated: {@code READY <node>},
 * {@code START <fire time millis> <node> <regular|catch-up> <fencing token> <wall millis>} when the job's body
 * starts, {@code <outcome> <fire time millis> <node> <fencing token> <wall millis>} for every outcome its listeners
 * hear (MISSED and HISTORY_LOST among them) and {@code STOPPED <node>}; the wall time is the system clock's, not the
 * node's skewed one.
 * Arguments: redis port, node id, clock offset millis, skew tolerance millis, job name, ledger path, misfire
 * policy (or {@code NONE}), catch-up max, and optionally a step file: a number of milliseconds written there (the
 * node reads it every 20 ms) steps both the scheduler's clock and the wall clock job-guard measures steps with.
 *
 * <p>The Redis client gives up on a command after 2 s and reconnects at least every 500 ms (as the Spring Boot
 * adapter configures it), so a node can be stopped while Redis is down and fires again soon after Redis returns.
 */
public final class RestartingNode {

    /** How long the job's body runs after it appended its START line, in the modes with a misfire policy. */
    public static final long BODY_MILLIS = 50;
    /**
     * How long the body runs in the plain mode (policy {@code NONE}): long enough that a test that kills a node right
     * after its START line kills it inside the body, where its one scheduler thread takes no other fire time.
     */
    public static final long PLAIN_BODY_MILLIS = 400;

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
        ClientResources resources = ClientResources.builder().reconnectDelay(
                Delay.exponential(Duration.ofMillis(10), Duration.ofMillis(500), 2, TimeUnit.MILLISECONDS)).build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])),
                LettuceClientConfiguration.builder().clientResources(resources).commandTimeout(Duration.ofSeconds(2))
                        .shutdownQuietPeriod(Duration.ZERO).shutdownTimeout(Duration.ofMillis(100)).build());
        factory.afterPropertiesSet();
        factory.start();
        AtomicLong step = new AtomicLong();
        Clock clock = new SteppedClock(Long.parseLong(args[2]), step);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgrestart");
        if (args.length > 8) {
            Path stepFile = Path.of(args[8]);
            FleetLeadsClock.wallClock(store, () -> System.currentTimeMillis() + step.get());
            Thread stepper = new Thread(() -> readSteps(stepFile, step), "clock-step");
            stepper.setDaemon(true);
            stepper.start();
        }
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(node).build())
                .skewTolerance(Duration.ofMillis(Long.parseLong(args[3]))).clock(clock).build());
        RestartingNode self = new RestartingNode(Path.of(args[5]));
        guard.addListener(event -> self.append(event.outcome() + "\t" + event.nominalFireTime().toEpochMilli() + "\t"
                + node + "\t" + event.fencingToken() + "\t" + System.currentTimeMillis()));
        JobOptions job = JobOptions.builder(args[4], Duration.ofSeconds(10)).build();
        boolean plain = args[6].equals("NONE");
        RecoveryOptions recovery = plain ? null : RecoveryOptions.builder()
                .misfirePolicy(MisfirePolicy.valueOf(args[6])).catchUpWindow(Duration.ofMinutes(5))
                .catchUpMax(Integer.parseInt(args[7])).delivery(Delivery.AT_MOST_ONCE).maxAttempts(3)
                .schedule(EVERY_SECOND).build();
        MissedFireTimeRecovery missed = ((JobGuardEngine) guard).missedFireTimeRecovery();
        Runnable body = () -> {
            RunContext run = RunContext.current().orElseThrow();
            self.append("START\t" + run.nominalFireTime().toEpochMilli() + "\t" + node + "\t"
                    + (run.isCatchUp() ? "catch-up" : "regular") + "\t" + run.fencingToken() + "\t"
                    + System.currentTimeMillis());
            self.pause(plain ? PLAIN_BODY_MILLIS : BODY_MILLIS);
        };
        Thread scheduler = new Thread(() -> self.schedule(clock, guard, missed, job, recovery, body), "scheduler");
        Thread background = new Thread(() -> self.sweep(clock, missed, job, recovery, body), "job-guard-recovery");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            self.stopping = true;
            join(scheduler);
            join(background);
            guard.close();
            store.close();
            factory.destroy();
            resources.shutdown(0, 100, TimeUnit.MILLISECONDS);
            self.append("STOPPED\t" + node);
        }));
        self.append("READY\t" + node);
        if (!plain) {
            background.start();
        }
        scheduler.start();
    }

    private void schedule(Clock clock, JobGuard guard, MissedFireTimeRecovery missed, JobOptions job,
                          RecoveryOptions recovery, Runnable body) {
        Instant next = EVERY_SECOND.next(clock.instant());
        while (true) {
            Instant due = next;
            if (!waitUntil(() -> !clock.instant().isBefore(due))) {
                return;
            }
            Admission admission = recovery == null ? guard.admit(job, due) : missed.admit(job, recovery, due, body);
            if (admission.granted()) {
                try (FiringPermit permit = admission.permit()) {
                    body.run();
                    permit.finish(null);
                }
            }
            Instant now = clock.instant();
            next = EVERY_SECOND.next(now.isAfter(due) ? now : due);
        }
    }

    private void sweep(Clock clock, MissedFireTimeRecovery missed, JobOptions job, RecoveryOptions recovery, Runnable body) {
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

    /** Reads the step file every 20 ms: its number, when there is one, is the clocks' step in milliseconds. */
    private static void readSteps(Path file, AtomicLong step) {
        while (true) {
            try {
                if (Files.exists(file)) {
                    String text = Files.readString(file, StandardCharsets.UTF_8).trim();
                    if (!text.isEmpty()) {
                        step.set(Long.parseLong(text));
                    }
                }
                Thread.sleep(20);
            } catch (IOException | NumberFormatException e) {
                // a half-written file: read it again at the next poll
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The system clock plus a fixed offset plus a step that may change while the node runs. */
    private static final class SteppedClock extends Clock {
        private final long offsetMillis;
        private final AtomicLong step;

        SteppedClock(long offsetMillis, AtomicLong step) {
            this.offsetMillis = offsetMillis;
            this.step = step;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the node's clock stays in UTC");
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + offsetMillis + step.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
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
