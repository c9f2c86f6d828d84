package io.jobguard.internal.engine;

import io.jobguard.JobGuard;
import io.jobguard.store.HistoryFormat;
import io.jobguard.store.RunHistory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A job's run history in an export format, read from the store page by page as the reader asks for bytes. It holds
 * one page ({@value #PAGE} entries) at a time, so an export of any length takes the same memory. The pages are walked by cursor
 * ({@link JobGuard#history}), so an entry recorded while the export runs never makes it repeat or skip one. A store
 * failure is an {@link IOException}: the export ends short rather than looking complete.
 */
public final class HistoryExportStream extends InputStream {

    /** Entries read from the store per page. */
    static final int PAGE = 500;

    private final JobGuard guard;
    private final String job;
    private final RunHistory.Query query;
    private final HistoryFormat format;
    private byte[] buffer = new byte[0];
    private int position;
    private String cursor;
    private boolean started;
    private boolean ended;

    /**
     * An export that reads nothing until its first read.
     *
     * @param guard  the engine that reads the history
     * @param job    the job
     * @param query  which entries
     * @param format the format
     */
    public HistoryExportStream(JobGuard guard, String job, RunHistory.Query query, HistoryFormat format) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.job = Objects.requireNonNull(job, "job");
        this.query = Objects.requireNonNull(query, "query");
        this.format = Objects.requireNonNull(format, "format");
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return buffer[position++] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, into.length);
        if (length == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(length, buffer.length - position);
        System.arraycopy(buffer, position, into, offset, n);
        position += n;
        return n;
    }

    /** Makes bytes available: false at the end of the export. */
    private boolean fill() throws IOException {
        while (position >= buffer.length) {
            if (!started) {
                started = true;
                load(format.header());
                continue;
            }
            if (ended) {
                return false;
            }
            RunHistory.Page page;
            try {
                page = guard.history(job, query, cursor, PAGE);
            } catch (RuntimeException e) {
                throw new IOException("job-guard: the export of job '" + job + "' history failed after "
                        + "its last line: " + e.getMessage(), e);
            }
            StringBuilder lines = new StringBuilder(page.entries().size() * 160);
            page.entries().forEach(entry -> lines.append(format.line(job, entry)));
            cursor = page.next();
            ended = cursor == null;
            load(lines.toString());
        }
        return true;
    }

    private void load(String text) {
        buffer = text.getBytes(StandardCharsets.UTF_8);
        position = 0;
    }
}
