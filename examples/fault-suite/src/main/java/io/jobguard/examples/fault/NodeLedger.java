package io.jobguard.examples.fault;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;

/**
 * One node's append-only ledger: one tab-separated line per event, written and flushed at once, so
 * a SIGKILLed node loses at most the line it was writing (the operating system keeps what was
 * written). Start and end of a run are separate lines. Format, one line:
 * {@code wallMillis event node job id token leaseLost keys}; see {@link LedgerChecker}. For the retry job the
 * last field of {@code START}/{@code END} is the attempt, and {@code OUTCOME} lines carry job-guard's outcomes.
 */
final class NodeLedger implements AutoCloseable {

    static final String READY = "READY";
    static final String START = "START";
    static final String END = "END";
    static final String BATCH_START = "BSTART";
    static final String BATCH_END = "BEND";
    /** How a firing of the retry job ended on this node, as job-guard reported it to its listeners. */
    static final String OUTCOME = "OUTCOME";

    private final OutputStream out;
    private final String node;
    private final Clock wall;

    NodeLedger(Path file, String node, Clock wall) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the ledger " + file, e);
        }
        this.node = node;
        this.wall = wall;
    }

    void ready() {
        write(READY, "-", 0, -1, false, "-");
    }

    void start(String job, Instant nominalFireTime, long token) {
        write(START, job, nominalFireTime.toEpochMilli(), token, false, "-");
    }

    void end(String job, Instant nominalFireTime, long token, boolean leaseLost) {
        write(END, job, nominalFireTime.toEpochMilli(), token, leaseLost, "-");
    }

    /**
     * The start of one attempt of a retrying job: a {@link #START} line whose last field is the attempt.
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param token           the attempt's fencing token
     * @param attempt         the fire time's attempt, from 1
     */
    void attemptStart(String job, Instant nominalFireTime, long token, int attempt) {
        write(START, job, nominalFireTime.toEpochMilli(), token, false, Integer.toString(attempt));
    }

    /**
     * The end of one attempt, written before it fails or returns: an {@link #END} line whose last field is the
     * attempt.
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param token           the attempt's fencing token
     * @param attempt         the fire time's attempt, from 1
     * @param leaseLost       whether the attempt was told its lease was lost
     */
    void attemptEnd(String job, Instant nominalFireTime, long token, int attempt, boolean leaseLost) {
        write(END, job, nominalFireTime.toEpochMilli(), token, leaseLost, Integer.toString(attempt));
    }

    /**
     * An outcome job-guard reported on this node for a fire time: an {@link #OUTCOME} line whose last field is
     * {@code <outcome>:<attempt>}.
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param token           the event's fencing token (-1 for a decision without a run)
     * @param outcome         the outcome's name
     * @param attempt         the event's attempt
     */
    void outcome(String job, Instant nominalFireTime, long token, String outcome, int attempt) {
        write(OUTCOME, job, nominalFireTime.toEpochMilli(), token, false, outcome + ":" + attempt);
    }

    void batchStart(String namespace, long id, long token, Collection<String> keys) {
        write(BATCH_START, namespace, id, token, false, String.join(",", keys));
    }

    void batchEnd(String namespace, long id, long token, boolean lost) {
        write(BATCH_END, namespace, id, token, lost, "-");
    }

    private synchronized void write(String event, String job, long id, long token, boolean lost, String keys) {
        String line = wall.millis() + "\t" + event + "\t" + node + "\t" + job + "\t" + id + "\t" + token + "\t"
                + lost + "\t" + keys + "\n";
        try {
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ledger of " + node, e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
