package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.LeaseValues;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.AcquireResult.Status;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunRecord;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code run-acquire.lua}'s reply, decoded in this one place from the shapes its header lists: one record per kind of
 * answer. Every reply ends with the creation time of the job's epoch ({@code ""} when a paused job has none), which
 * the node remembers whatever the answer.
 */
sealed interface RunAcquireReply {

    /** The creation time of the job's epoch, epoch millis as text; {@code ""} when none exists. */
    String epoch();

    /** The status word the script answered. */
    Status status();

    /**
     * {@code ACQUIRED}: lease and marker belong to the caller.
     *
     * @param supersededFireTime the fire time whose pending attempt this grant superseded (epoch millis), or -1
     */
    record Acquired(long acquiredAtMillis, long fencingToken, long supersededFireTime, String epoch)
            implements RunAcquireReply {
        @Override
        public Status status() {
            return Status.ACQUIRED;
        }

        /** The store's result: a grant, with the superseded attempt's fire time as the record's pending retry. */
        AcquireResult result() {
            RunRecord superseded = supersededFireTime < 0 ? null : new RunRecord(null, null, 1, null,
                    new RunRecord.PendingRetry(Instant.ofEpochMilli(supersededFireTime), 0, null));
            return new AcquireResult(Status.ACQUIRED, fencingToken, Instant.ofEpochMilli(acquiredAtMillis), null, null,
                    superseded);
        }
    }

    /**
     * {@code NOT_DUE}: a failed run's pending attempt is not due yet.
     *
     * @param dueMillis when it is due, by Redis' clock
     * @param waitMillis how long that is from the call, by Redis' clock
     */
    record NotDue(long dueMillis, long waitMillis, String epoch) implements RunAcquireReply {
        @Override
        public Status status() {
            return Status.NOT_DUE;
        }
    }

    /** {@code ALREADY_RAN}, {@code BUSY} or {@code COOLDOWN}: a value holds the fire time, the lease or the delay. */
    record Held(Status status, String holderValue, long pttl, String epoch) implements RunAcquireReply {

        /** PTTL's answer for a key that does not exist. */
        static final long NO_KEY = -2;

        /**
         * The holder, with how long its key lives ({@code null} when it has no TTL). A PTTL of -2 (no key) is a holder
         * the script names without an entry (a fire time declared missed, {@code declared-missed}): nothing holds
         * it, so it lives for zero rather than for ever.
         */
        LeaseRecord holder() {
            return LeaseValues.parse(holderValue, pttl == NO_KEY ? Duration.ZERO : ttl());
        }

        /** The key's remaining time to live, {@code null} when it has none. */
        Duration ttl() {
            return LeaseValues.ttl(pttl);
        }
    }

    /**
     * {@code HISTORY_LOST}: the store lost the job's history and the fire time may have run before the loss.
     *
     * @param epochValue       the epoch's whole value ({@code <created>|lost})
     * @param refusedUntilMillis the fire time from which fire times run again
     * @param after            {@code ""}, or the handled fire time after which the fire times before this one were
     *                         refused with it (this caller reports them)
     */
    record HistoryLost(String epochValue, long refusedUntilMillis, String after, String epoch) implements RunAcquireReply {
        @Override
        public Status status() {
            return Status.HISTORY_LOST;
        }

        /** The handled fire time after which the refused stretch starts, or null. */
        RunRecord refusedAfter() {
            return after.isEmpty() ? null : new RunRecord(Instant.ofEpochMilli(Long.parseLong(after)), null, 1, null);
        }
    }

    /**
     * A recovery answer: {@code CATCH_UP}, {@code RETRY}, {@code ABANDONED}, {@code MISSED} or {@code SUPERSEDED}.
     *
     * @param first  the record's s (CATCH_UP, SUPERSEDED), st (RETRY, ABANDONED) or T (MISSED)
     * @param second the attempt (RETRY, ABANDONED), the fire time from which a loss no longer refuses (CATCH_UP, or
     *               {@code ""}), else {@code ""}
     */
    record Recovery(Status status, String first, String second, String epoch) implements RunAcquireReply {

        /** The store's result for this answer. */
        AcquireResult result() {
            Instant handled = instant(first);
            RunRecord record = status == Status.RETRY || status == Status.ABANDONED
                    ? new RunRecord(handled, handled, Integer.parseInt(second), null) : new RunRecord(handled, null, 1, null);
            // CATCH_UP after a loss: the fire times before 'lostUntil' are refused (HISTORY_LOST), never caught up
            Instant lostUntil = status == Status.CATCH_UP ? instant(second) : null;
            return new AcquireResult(status, -1, lostUntil, null, null, record);
        }
    }

    /** {@code PAUSED}: an operator paused the job cluster-wide. */
    record Paused(String epoch) implements RunAcquireReply {
        @Override
        public Status status() {
            return Status.PAUSED;
        }
    }

    /**
     * Decodes a reply.
     *
     * @param reply the script's multi-bulk reply
     * @return the typed reply
     * @throws IllegalStateException if the status word is none the script answers
     */
    static RunAcquireReply decode(List<Object> reply) {
        String epoch = ScriptRunner.text(reply.get(reply.size() - 1));
        String word = ScriptRunner.text(reply.get(0));
        return switch (word) {
            case "ACQUIRED" -> new Acquired(ScriptRunner.number(reply.get(1)), ScriptRunner.number(reply.get(2)),
                    reply.size() > 4 ? Long.parseLong(ScriptRunner.text(reply.get(3))) : -1, epoch);
            case "NOT_DUE" -> new NotDue(Long.parseLong(ScriptRunner.text(reply.get(1))),
                    ScriptRunner.number(reply.get(2)), epoch);
            case "ALREADY_RAN", "BUSY", "COOLDOWN" -> new Held(Status.valueOf(word), ScriptRunner.text(reply.get(1)),
                    ScriptRunner.number(reply.get(2)), epoch);
            case "HISTORY_LOST" -> new HistoryLost(ScriptRunner.text(reply.get(1)), ScriptRunner.number(reply.get(2)),
                    ScriptRunner.text(reply.get(3)), epoch);
            case "CATCH_UP", "RETRY", "ABANDONED", "MISSED", "SUPERSEDED" -> new Recovery(Status.valueOf(word),
                    ScriptRunner.text(reply.get(1)), ScriptRunner.text(reply.get(2)), epoch);
            case "PAUSED" -> new Paused(epoch);
            default -> throw new IllegalStateException("run-acquire.lua answered an unknown status: " + reply);
        };
    }

    private static Instant instant(String millis) {
        return millis == null || !millis.matches("-?\\d{1,18}") ? null : Instant.ofEpochMilli(Long.parseLong(millis));
    }
}
