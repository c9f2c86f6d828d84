package io.jobguard.store;

import io.jobguard.store.RunHistory.FireEntry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Duration;
import java.time.Instant;

/**
 * The export formats of a job's run history: one line per entry, the same columns in both, in this order: job,
 * fireTime, outcome, attempt, node, start, end, durationMs, fencingToken, failureClass, failureMessage. Times are
 * ISO-8601 in UTC; a value that does not apply is empty (CSV) or null (NDJSON). Writing goes entry by entry to a
 * {@link Writer}, so an export held in memory is one line, however long the history.
 */
public enum HistoryFormat {

    /**
     * RFC 4180 CSV with a header line; a text cell that starts with {@code = + - @} gets a leading {@code '} so that
     * a spreadsheet shows a failure message rather than evaluating it.
     */
    CSV("text/csv"),
    /** One JSON object per line (NDJSON), without a header. */
    NDJSON("application/x-ndjson");

    private static final String HEADER = "job,fireTime,outcome,attempt,node,start,end,durationMs,fencingToken,"
            + "failureClass,failureMessage";

    private final String mediaType;

    HistoryFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    /**
     * The format's media type, for example {@code text/csv}.
     *
     * @return the media type
     */
    public String mediaType() {
        return mediaType;
    }

    /**
     * The line that starts an export, with its line break: CSV's header, nothing for NDJSON.
     *
     * @return the header, or {@code ""}
     */
    public String header() {
        return this == CSV ? HEADER + "\n" : "";
    }

    /**
     * One entry as a line of this format, with its line break.
     *
     * @param job   the job's name
     * @param entry the entry
     * @return the line
     */
    public String line(String job, FireEntry entry) {
        Object[] values = {job, time(entry.nominalFireTime()), entry.outcome(), entry.attempt(), entry.node(),
                time(entry.start()), time(entry.end()), millis(entry.duration()),
                entry.fencingToken() < 0 ? null : entry.fencingToken(), entry.failureClass(), entry.failureMessage()};
        StringBuilder out = new StringBuilder(160);
        if (this == CSV) {
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.append(',');
                }
                csv(out, values[i]);
            }
        } else {
            String[] columns = HEADER.split(",");
            out.append('{');
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.append(',');
                }
                json(out.append('"').append(columns[i]).append("\":"), values[i]);
            }
            out.append('}');
        }
        return out.append('\n').toString();
    }

    /**
     * A sink for {@link RunHistory#exportHistory} that writes each entry to the writer in this format, after
     * {@link #header()} (which the caller writes first).
     *
     * @param job    the job's name
     * @param writer where the lines go
     * @return the sink; it throws {@link UncheckedIOException} when the writer fails
     */
    public java.util.function.Predicate<FireEntry> writingTo(String job, Writer writer) {
        return entry -> {
            try {
                writer.write(line(job, entry));
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static String time(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static Long millis(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    private static void csv(StringBuilder out, Object value) {
        if (value == null) {
            return;
        }
        if (value instanceof Number) {
            out.append(value);
            return;
        }
        String text = value.toString();
        if (!text.isEmpty() && "=+-@".indexOf(text.charAt(0)) >= 0) {
            text = "'" + text;
        }
        if (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            out.append('"').append(text.replace("\"", "\"\"")).append('"');
        } else {
            out.append(text);
        }
    }

    private static void json(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
            return;
        }
        if (value instanceof Number) {
            out.append(value);
            return;
        }
        String text = value.toString();
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        out.append('"');
    }
}
