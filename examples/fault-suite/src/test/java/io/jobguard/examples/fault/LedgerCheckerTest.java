package io.jobguard.examples.fault;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The checker on hand-written ledgers: each defect it must find, and a clean ledger it must pass. */
class LedgerCheckerTest {

    private static final long T0 = 1_700_000_000_000L;
    private final LedgerChecker checker = new LedgerChecker(Map.of("job", Duration.ofSeconds(1)),
            Duration.ofSeconds(1), Duration.ZERO);

    /** Fire times T0+0 .. T0+10 s, each run once, alternately by two nodes, with rising tokens. */
    private static List<String> clean() {
        List<String> lines = new ArrayList<>();
        lines.add(runner(T0, "ALL_READY", "-"));
        for (int i = 0; i <= 10; i++) {
            long fire = T0 + i * 1000L;
            String node = i % 2 == 0 ? "node-A" : "node-B";
            lines.add(line(fire + 10, "START", node, "job", fire, i + 1, false, "-"));
            lines.add(line(fire + 400, "END", node, "job", fire, i + 1, false, "-"));
        }
        lines.add(runner(T0 + 10_500, "STOP", "-"));
        return lines;
    }

    @Test
    void aCleanLedgerHasNoFinding() {
        LedgerChecker.Verdict v = checker.check(clean());

        assertThat(v.fireTimes()).isEqualTo(11);
        assertThat(v.runs()).isEqualTo(11);
        assertThat(v.ranTwice()).isZero();
        assertThat(v.overlaps()).isZero();
        assertThat(v.missedInside() + v.missedOutside()).isZero();
        assertThat(v.notes()).isEmpty();
    }

    @Test
    void aFireTimeStartedOnTwoNodesRanTwice() {
        List<String> lines = clean();
        lines.add(line(T0 + 3_000 + 2_500, "START", "node-C", "job", T0 + 3_000, 20, false, "-"));
        lines.add(line(T0 + 3_000 + 2_900, "END", "node-C", "job", T0 + 3_000, 20, false, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.ranTwice()).isEqualTo(1);
        assertThat(v.notes()).anyMatch(n -> n.contains("job@") && n.contains("×2"));
    }

    @Test
    void anOverlapWhoseLaterRunHasTheLowerTokenIsOutOfOrder() {
        List<String> lines = clean();
        // fire time 4 s (token 5) runs 4.010 .. 4.400; a run of 5 s starting at 4.200 with token 3
        lines.removeIf(l -> l.contains("\tnode-B\tjob\t" + (T0 + 5_000) + "\t"));
        lines.add(line(T0 + 4_200, "START", "node-B", "job", T0 + 5_000, 3, false, "-"));
        lines.add(line(T0 + 4_900, "END", "node-B", "job", T0 + 5_000, 3, true, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.overlaps()).isEqualTo(1);
        assertThat(v.outOfOrder()).isEqualTo(1);
        assertThat(v.notes()).anyMatch(n -> n.contains("token went backwards"));
        assertThat(v.notes()).anyMatch(n -> n.contains("lease lost"));
    }

    @Test
    void anOverlapWhoseLaterRunHasTheHigherTokenIsInOrder() {
        List<String> lines = clean();
        lines.removeIf(l -> l.contains("\tnode-B\tjob\t" + (T0 + 5_000) + "\t"));
        lines.add(line(T0 + 4_200, "START", "node-B", "job", T0 + 5_000, 6, false, "-"));
        lines.add(line(T0 + 4_900, "END", "node-B", "job", T0 + 5_000, 6, false, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.overlaps()).isEqualTo(1);
        assertThat(v.outOfOrder()).isZero();
    }

    @Test
    void missesAreSplitIntoInsideAndOutsideTheFaultWindow() {
        List<String> lines = clean();
        // fault 6.0 .. 6.5 s, margin 1 s: a miss of 7 s is inside, a miss of 2 s outside
        lines.add(runner(T0 + 6_000, "FAULT_START", "-"));
        lines.add(runner(T0 + 6_500, "FAULT_END", "-"));
        lines.removeIf(l -> l.contains("\tjob\t" + (T0 + 7_000) + "\t") || l.contains("\tjob\t" + (T0 + 2_000) + "\t"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.missedInside()).isEqualTo(1);
        assertThat(v.missedOutside()).isEqualTo(1);
        // the first start at or after 6.5 s is fire time 8 s at 8.010 s
        assertThat(v.recoveryMillis()).isEqualTo(1_510L);
    }

    @Test
    void twoBatchLeasesHoldingOneKeyAtOnceAreTwoHolders() {
        List<String> lines = clean();
        lines.add(line(T0 + 1_000, "BSTART", "node-A", "pool", 1, 10, false, "K1,K2,K3"));
        lines.add(line(T0 + 1_300, "BEND", "node-A", "pool", 1, 10, false, "-"));
        // disjoint keys at the same time: fine
        lines.add(line(T0 + 1_100, "BSTART", "node-B", "pool", 1, 11, false, "K4,K5,K6"));
        lines.add(line(T0 + 1_200, "BEND", "node-B", "pool", 1, 11, false, "-"));
        // K3 again while node-A still holds it: two holders
        lines.add(line(T0 + 1_250, "BSTART", "node-C", "pool", 1, 12, false, "K3,K7,K8"));
        lines.add(line(T0 + 1_400, "BEND", "node-C", "pool", 1, 12, false, "-"));
        // K1 after node-A released it: fine
        lines.add(line(T0 + 1_350, "BSTART", "node-B", "pool", 2, 13, false, "K1,K9,K10"));
        lines.add(line(T0 + 1_500, "BEND", "node-B", "pool", 2, 13, false, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.batches()).isEqualTo(4);
        assertThat(v.batchTwoHolders()).isEqualTo(1);
        assertThat(v.batchOutOfOrder()).isZero();
    }

    @Test
    void aSecondHolderWithTheLowerTokenIsOutOfOrder() {
        List<String> lines = clean();
        lines.add(line(T0 + 1_000, "BSTART", "node-A", "pool", 1, 10, false, "K1,K2,K3"));
        lines.add(line(T0 + 1_300, "BEND", "node-A", "pool", 1, 10, true, "-"));
        lines.add(line(T0 + 1_250, "BSTART", "node-C", "pool", 1, 2, false, "K3,K7,K8"));
        lines.add(line(T0 + 1_400, "BEND", "node-C", "pool", 1, 2, false, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.batchTwoHolders()).isEqualTo(1);
        assertThat(v.batchOutOfOrder()).isEqualTo(1);
    }

    @Test
    void aRunOfAKilledNodeEndsWhenItWasKilled() {
        List<String> lines = clean();
        // node-A starts fire time 4 s and is killed at 4.300 s without an end line; node-B's run of 5 s
        // starts after the kill (no overlap), node-C's run of 4 s during it (overlap)
        lines.removeIf(l -> l.contains("\tEND\tnode-A\tjob\t" + (T0 + 4_000) + "\t"));
        lines.add(runner(T0 + 4_300, "KILLED", "node-A"));
        lines.add(line(T0 + 4_100, "START", "node-C", "job", T0 + 4_000, 30, false, "-"));
        lines.add(line(T0 + 4_200, "END", "node-C", "job", T0 + 4_000, 30, false, "-"));
        lines.removeIf(l -> l.contains("node-A") && l.contains("\tjob\t") && !l.contains("\t" + (T0 + 4_000) + "\t")
                && Long.parseLong(l.split("\t")[0]) > T0 + 4_300);

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.overlaps()).isEqualTo(1);
        assertThat(v.ranTwice()).isEqualTo(1);
    }

    @Test
    void tokensReissuedAfterALossAreNotedAsBackwardsAndTwice() {
        List<String> lines = clean();
        // fire time 9 s gets token 2 again, a second after fire time 8 s got token 9
        lines.removeIf(l -> l.contains("\tjob\t" + (T0 + 9_000) + "\t"));
        lines.add(line(T0 + 9_010, "START", "node-B", "job", T0 + 9_000, 2, false, "-"));
        lines.add(line(T0 + 9_400, "END", "node-B", "job", T0 + 9_000, 2, false, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.notes()).contains("job: token went backwards 1×", "job: 1 token(s) handed out twice");
    }

    @Test
    void startsWrittenInSwappedOrderWithinMillisecondsAreNotBackwards() {
        List<String> lines = clean();
        // two batch leases acquired within milliseconds; the one with the higher token wrote its line first
        lines.add(line(T0 + 2_001, "BSTART", "node-A", "pool", 1, 8, false, "K1"));
        lines.add(line(T0 + 2_003, "BSTART", "node-B", "pool", 1, 7, false, "K2"));
        lines.add(line(T0 + 2_100, "BEND", "node-A", "pool", 1, 8, false, "-"));
        lines.add(line(T0 + 2_100, "BEND", "node-B", "pool", 1, 7, false, "-"));

        LedgerChecker.Verdict v = checker.check(lines);

        assertThat(v.batches()).isEqualTo(2);
        assertThat(v.notes()).isEmpty();
    }

    @Test
    void aLineCutBySigkillIsIgnored() {
        List<String> lines = clean();
        lines.add("1700000004");

        assertThat(checker.check(lines).runs()).isEqualTo(11);
    }

    private static String runner(long wall, String event, String subject) {
        return line(wall, event, "runner", subject, 0, -1, false, "-");
    }

    private static String line(long wall, String event, String node, String job, long id, long token, boolean lost,
                               String keys) {
        return wall + "\t" + event + "\t" + node + "\t" + job + "\t" + id + "\t" + token + "\t" + lost + "\t" + keys;
    }
}
