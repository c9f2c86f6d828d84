package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.RunLeaseRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.StringJoiner;

/**
 * {@code run-acquire.lua}'s arguments, built in this one place in the order its header lists (ARGV[1] to ARGV[18]),
 * as {@link RunAcquireReply} decodes its reply. Every duration and fire time becomes Redis milliseconds here, and
 * the recovery mode its words. The keys are {@link io.jobguard.internal.redis.KeySchema#runAcquire}'s.
 *
 * @param request      the acquire: owner token, node, fire time, lease and marker TTL
 * @param mode         a regular firing or a recovery attempt (ARGV[9] to ARGV[11])
 * @param lastEpoch    the epoch this node saw last for the job, {@code ""} if none
 * @param window       the history-loss window judged for that epoch, with its anchor ({@code < 0}: none)
 * @param highestToken the highest fencing token this node saw for the job, {@code "0"} if none
 * @param handled      the latest fire time this node saw handled for the job, epoch millis, {@code ""} if none
 * @param waiting      whether a caller on this node waits for the lease's release
 */
public record RunAcquireArguments(RunLeaseRequest request, AcquireMode mode, String lastEpoch, LossWindows.Window window,
                           String highestToken, String handled, boolean waiting) {

    /**
     * A fire time as the scripts take it.
     *
     * @param nominalFireTime the fire time
     * @return its epoch milliseconds
     */
    public static long millis(Instant nominalFireTime) {
        return nominalFireTime.toEpochMilli();
    }

    /**
     * A duration as the scripts take it: at least one millisecond, since Redis refuses a TTL of zero.
     *
     * @param duration the duration
     * @return its milliseconds, at least 1
     */
    public static long millis(Duration duration) {
        return Math.max(1, duration.toMillis());
    }

    /** The configured history-loss window (ARGV[12]): the request's, in milliseconds, never negative. */
    static long configuredWindowMillis(RunLeaseRequest request) {
        return Math.max(0, request.historyLossWindow().toMillis());
    }

    /** ARGV, in the script's order. */
    List<String> argv() {
        return List.of(request.ownerToken(), request.nodeId(), Long.toString(millis(request.nominalFireTime())),
                Long.toString(millis(request.lease())), Long.toString(millis(request.markerTtl())), lastEpoch,
                Long.toString(window.millis()), highestToken,
                previous(mode), delivery(mode), kind(mode),
                Long.toString(configuredWindowMillis(request)),
                window.anchor() < 0 ? "" : Long.toString(window.anchor()), handled,
                waiting ? "1" : "", Integer.toString(Math.max(0, request.historySize())),
                declared(mode.declaredLost()), declared(mode.declaredMissed()));
    }

    /** ARGV[17] and ARGV[18]: fire times a catch-up or a declaration passes over, comma-separated. */
    private static String declared(List<Instant> fireTimes) {
        StringJoiner joined = new StringJoiner(",");
        for (Instant fireTime : fireTimes) {
            joined.add(Long.toString(millis(fireTime)));
        }
        return joined.toString();
    }

    /** ARGV[9]: the gap check, the schedule's fire time immediately before this one. */
    private static String previous(AcquireMode mode) {
        return mode.kind() == AcquireMode.Kind.REGULAR && mode.previous() != null
                ? Long.toString(millis(mode.previous())) : "";
    }

    /** ARGV[10]: the dead-run check. */
    private static String delivery(AcquireMode mode) {
        if (mode.kind() != AcquireMode.Kind.REGULAR || mode.delivery() == null) {
            return "";
        }
        return mode.delivery() == AcquireMode.Delivery.RETRY ? "least:" + mode.maxAttempts() : "most";
    }

    /** ARGV[11]: the kind of attempt. */
    private static String kind(AcquireMode mode) {
        return switch (mode.kind()) {
            case REGULAR -> "";
            case CATCH_UP -> "catchup:" + millis(mode.previous());
            case MISS -> "miss:" + millis(mode.previous());
            case RETRY -> "retry:" + mode.attempt();
            case RETRY_FAILED -> "again:" + mode.attempt();
        };
    }
}
