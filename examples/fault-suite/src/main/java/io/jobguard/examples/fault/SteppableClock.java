package io.jobguard.examples.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A node's scheduler clock: the system clock plus a fixed skew plus a step the runner can change
 * while the node runs, by writing milliseconds to an offset file (re-read at most every 100 ms; a
 * missing or empty file means no step). This is how the suite steps one node's clock 30 s forward
 * and back without touching the machine's clock.
 */
final class SteppableClock extends Clock {

    private static final long REREAD_NANOS = Duration.ofMillis(100).toNanos();

    /** The system clock plus the fixed skew. */
    private final Clock skewed;
    private final Path offsetFile;
    private volatile long stepMillis;
    private volatile long readAt;
    private volatile boolean read;

    SteppableClock(Clock base, Duration skew, Path offsetFile) {
        this(Clock.offset(base, skew), offsetFile);
    }

    private SteppableClock(Clock skewed, Path offsetFile) {
        this.skewed = skewed;
        this.offsetFile = offsetFile;
    }

    @Override
    public ZoneId getZone() {
        return skewed.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new SteppableClock(skewed.withZone(zone), offsetFile);
    }

    @Override
    public Instant instant() {
        return skewed.instant().plusMillis(step());
    }

    private long step() {
        if (offsetFile == null) {
            return 0;
        }
        long now = System.nanoTime();
        if (!read || now - readAt > REREAD_NANOS) {
            stepMillis = readStep();
            readAt = now;
            read = true;
        }
        return stepMillis;
    }

    private long readStep() {
        try {
            String text = Files.readString(offsetFile, StandardCharsets.UTF_8).trim();
            return text.isEmpty() ? 0 : Long.parseLong(text);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException | NumberFormatException e) {
            // a half-written file: keep the last value, read again next time
            return stepMillis;
        }
    }
}
