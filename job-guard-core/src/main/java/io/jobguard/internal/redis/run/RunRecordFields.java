package io.jobguard.internal.redis.run;

import io.jobguard.store.RunRecord;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The run record as the job's state hash holds it (fields {@code s}, {@code st}, {@code a}, {@code c}, {@code x} and
 * {@code r} of {@code run-acquire.lua}'s header), decoded for the recovery pass.
 */
final class RunRecordFields {

    private RunRecordFields() {
    }

    /** The run record from its hash, empty if it has no handled fire time. */
    static Optional<RunRecord> record(Map<byte[], byte[]> raw) {
        if (raw == null || raw.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> fields = new HashMap<>();
        raw.forEach((k, v) -> fields.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
        Instant handled = instant(fields.get("s"));
        if (handled == null) {
            return Optional.empty();
        }
        String attempt = fields.get("a");
        boolean reported = fields.get("x") != null && fields.get("x").equals(fields.get("st"));
        // a dead run reported as abandoned counts as completed: nobody runs it again
        Instant completed = reported ? instant(fields.get("st")) : instant(fields.get("c"));
        return Optional.of(new RunRecord(handled, instant(fields.get("st")),
                attempt == null || !attempt.matches("\\d{1,9}") ? 1 : Integer.parseInt(attempt), completed,
                pendingRetry(fields.get("r"))));
    }

    /** Field r, {@code '<fire time>|<failed attempt>|<due millis>'}; null when empty or not of that shape. */
    static RunRecord.PendingRetry pendingRetry(String value) {
        if (value == null || !value.matches("\\d{1,18}\\|\\d{1,9}\\|\\d{1,18}")) {
            return null;
        }
        String[] parts = value.split("\\|");
        return new RunRecord.PendingRetry(Instant.ofEpochMilli(Long.parseLong(parts[0])), Integer.parseInt(parts[1]),
                Instant.ofEpochMilli(Long.parseLong(parts[2])));
    }

    private static Instant instant(String millis) {
        if (millis == null || !millis.matches("-?\\d{1,18}")) {
            return null;
        }
        return Instant.ofEpochMilli(Long.parseLong(millis));
    }
}
