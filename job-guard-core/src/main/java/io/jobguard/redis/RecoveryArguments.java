package io.jobguard.redis;

import io.jobguard.store.AcquireMode;
import io.jobguard.store.RunRecord;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The recovery arguments of {@code run-acquire.lua} (ARGV[9] to ARGV[11]) and the run record as the state hash holds it. */
final class RecoveryArguments {

    private RecoveryArguments() {
    }

    /** ARGV[9]: the gap check. */
    static String previous(AcquireMode mode) {
        return mode.kind() == AcquireMode.Kind.REGULAR && mode.previous() != null
                ? Long.toString(mode.previous().toEpochMilli()) : "";
    }

    /** ARGV[10]: the dead-run check. */
    static String delivery(AcquireMode mode) {
        if (mode.kind() != AcquireMode.Kind.REGULAR || mode.delivery() == null) {
            return "";
        }
        return mode.delivery() == AcquireMode.Delivery.RETRY ? "least:" + mode.maxAttempts() : "most";
    }

    /** ARGV[11]: the kind of attempt. */
    static String mode(AcquireMode mode) {
        return switch (mode.kind()) {
            case REGULAR -> "";
            case CATCH_UP -> "catchup:" + mode.previous().toEpochMilli();
            case MISS -> "miss:" + mode.previous().toEpochMilli();
            case RETRY -> "retry:" + mode.attempt();
        };
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
                attempt == null || !attempt.matches("\\d{1,9}") ? 1 : Integer.parseInt(attempt), completed));
    }

    private static Instant instant(String millis) {
        if (millis == null || !millis.matches("-?\\d{1,18}")) {
            return null;
        }
        return Instant.ofEpochMilli(Long.parseLong(millis));
    }
}
