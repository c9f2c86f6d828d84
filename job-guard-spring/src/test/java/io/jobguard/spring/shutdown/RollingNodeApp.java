package io.jobguard.spring.shutdown;

import io.jobguard.ClusterSingleton;
import io.jobguard.RunContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Boot node for {@link RollingRestartMultiJvmIT}, run in a JVM of its own on job-guard's default settings: a
 * guarded job due every two seconds with a 10-minute lease. Every run appends {@code START} and {@code END} lines
 * to the node's own ledger file ({@code test.ledger}), written and forced to disk before the body goes on, so the
 * test judges what ran from the ledgers, not from job-guard's own records. Prints "NODE ..." lines the test waits for.
 *
 * <p>{@code test.run-millis} is how long a run takes; a run that starts once the context is closing takes
 * {@code test.closing-run-millis} instead. {@code test.slow-stop-millis} (default 0) holds the shutdown that long in
 * lifecycle phase 1: after job-guard's hand-over (two phases above the connection factory's 0), before the factory stops.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class RollingNodeApp {

    static volatile boolean closing;

    public static void main(String[] args) {
        SpringApplication.run(RollingNodeApp.class, args);
    }

    @Bean
    RollingJob rollingJob() {
        return new RollingJob(Path.of(System.getProperty("test.ledger")), System.getProperty("test.node", "node"),
                Long.getLong("test.run-millis", 500), Long.getLong("test.closing-run-millis", 500));
    }

    @Bean
    SlowStop slowStop() {
        return new SlowStop(Long.getLong("test.slow-stop-millis", 0));
    }

    @EventListener(ApplicationReadyEvent.class)
    void ready() {
        say("STARTED");
    }

    @EventListener(ContextClosedEvent.class)
    void closing() {
        closing = true;
        say("CLOSING");
    }

    static class RollingJob {
        private final Path ledger;
        private final String node;
        private final long runMillis;
        private final long closingRunMillis;

        RollingJob(Path ledger, String node, long runMillis, long closingRunMillis) {
            this.ledger = ledger;
            this.node = node;
            this.runMillis = runMillis;
            this.closingRunMillis = closingRunMillis;
        }

        @Scheduled(cron = "*/2 * * * * *")
        @ClusterSingleton(name = "rolling", lease = "10m")
        public void run() {
            RunContext run = RunContext.current().orElseThrow();
            long t = run.nominalFireTime().toEpochMilli();
            append("START " + t + " " + node + " " + System.currentTimeMillis() + " closing=" + closing);
            say("RUNNING " + t);
            try {
                new CountDownLatch(1).await(closing ? closingRunMillis : runMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            append("END " + t + " " + node + " " + System.currentTimeMillis() + " lost=" + run.isLeaseLost());
        }

        private synchronized void append(String line) {
            try (FileChannel out = FileChannel.open(ledger, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                out.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
                out.force(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Holds the context's stop in phase 1 for a while, so a fire time falls between job-guard's hand-over and the factory's stop. */
    static class SlowStop implements SmartLifecycle {
        private final long millis;
        private volatile boolean running;

        SlowStop(long millis) {
            this.millis = millis;
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
            if (millis > 0) {
                say("SLOW-STOP " + millis);
                try {
                    new CountDownLatch(1).await(millis, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return 1;
        }
    }

    static void say(String line) {
        System.out.println("NODE " + line);
        System.out.flush();
    }
}
