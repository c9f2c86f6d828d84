package io.jobguard.internal.redis.loss;

import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.store.JobId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gap rule of {@link LossWindows}: a node whose consecutive reads of the fleet's leads lie more than the retention
 * apart may have missed a node that published a lead and left meanwhile (its entry deleted), so a loss within the
 * horizon after such a gap keeps the configured window. Reads are fed in by hand (Redis millis), one leads hash
 * ({@code ""} shard), node {@code a} publishing a lead of 100 ms.
 */
class LossWindowsGapTest {

    private static final JobId JOB = new JobId("loss", "report");
    private static final long CONFIGURED = Duration.ofMinutes(1).toMillis();
    private static final long T = 1_000_000_000L;
    private static final String LINEAGE = T + "|new";

    private final LossWindows windows = new LossWindows(job -> "");

    private void read(long at, String lineage) {
        windows.fleetViewed(at, "", lineage, Map.of("a", new long[] {at, 100}));
    }

    /** Reads every interval from {@code from} to {@code to} (inclusive) of one lineage. */
    private void readRegularly(long from, long to, String lineage) {
        for (long at = from; at <= to; at += FleetLeads.INTERVAL_MILLIS) {
            read(at, lineage);
        }
    }

    /** Sees the job's epoch created at {@code epoch}, then Redis loses it: the hash is re-created at {@code lostAt}. */
    private LossWindows.Window lossAfter(long epoch, long lostAt) {
        windows.replied(JOB, Long.toString(epoch), "ACQUIRED", -1);
        String lost = lostAt + "|lost";
        readRegularly(lostAt, lostAt + 1_000, lost);
        return windows.window(JOB, Long.toString(epoch), CONFIGURED);
    }

    @Test
    void regularReadsJudgeTheLossFromTheLeadsKnown() {
        readRegularly(T, T + 3_000, LINEAGE);
        assertThat(lossAfter(T + 3_000, T + 3_200)).isEqualTo(new LossWindows.Window(T + 3_000, 100 + LossWindows.MARGIN_MILLIS));
    }

    @Test
    void aLossAfterAGapInTheReadsKeepsTheConfiguredWindow() {
        read(T, LINEAGE);
        read(T + FleetLeads.RETENTION_MILLIS + 1, LINEAGE); // held back: a node may have published and left meanwhile
        readRegularly(T + 3_000, T + 5_000, LINEAGE);
        assertThat(lossAfter(T + 5_000, T + 5_200)).isEqualTo(new LossWindows.Window(-1, CONFIGURED));
    }

    @Test
    void readsJustWithinTheRetentionAreNoGap() {
        read(T, LINEAGE);
        readRegularly(T + FleetLeads.RETENTION_MILLIS, T + 4_000, LINEAGE);
        assertThat(lossAfter(T + 4_000, T + 4_200).anchor()).isEqualTo(T + 4_000);
    }

    @Test
    void aGapOlderThanTheHorizonNoLongerCounts() {
        read(T, LINEAGE);
        long afterGap = T + FleetLeads.RETENTION_MILLIS + 1;
        long horizon = Duration.ofMinutes(10).toMillis();
        readRegularly(afterGap, afterGap + horizon + 1_000, LINEAGE);
        long epoch = afterGap + horizon + 1_000;
        assertThat(lossAfter(epoch, epoch + 200)).isEqualTo(new LossWindows.Window(epoch, 100 + LossWindows.MARGIN_MILLIS));
    }

    /** Redis was down 5 s while this node kept trying: nobody published meanwhile, so the judged window applies. */
    @Test
    void anOutageThisNodeKeptReadingThroughIsNoGap() {
        readRegularly(T, T + 3_000, LINEAGE);
        windows.replied(JOB, Long.toString(T + 3_000), "ACQUIRED", -1);
        long back = T + 8_000;
        readRegularly(back, back + 1_000, back + "|lost");
        assertThat(windows.window(JOB, Long.toString(T + 3_000), CONFIGURED))
                .isEqualTo(new LossWindows.Window(T + 3_000, 100 + LossWindows.MARGIN_MILLIS));
    }
}
