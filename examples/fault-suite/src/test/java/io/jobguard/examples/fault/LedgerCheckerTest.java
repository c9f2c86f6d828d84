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
    void startDelaysAreTheFirstStartsLatenessAndTheWindowsWorstOffTheNodeHit() {
        List<String> lines = clean();
        // node-B is hit at 5.9 s; fire time 6 s (node-A's in clean()) starts 2.5 s late on node-C and again 4 s late
        // on node-A (a second start: the first one counts); fire time 7 s (node-B's) starts 3.2 s late on node-B itself
        lines.add(runner(T0 + 5_900, "HIT", "node-B"));
        lines.add(runner(T0 + 6_000, "FAULT_START", "-"));
        lines.add(runner(T0 + 6_500, "FAULT_END", "-"));
        lines.removeIf(l -> l.contains("\tjob\t" + (T0 + 6_000) + "\t") || l.contains("\tjob\t" + (T0 + 7_000) + "\t"));
        lines.add(line(T0 + 8_500, "START", "node-C", "job", T0 + 6_000, 40, false, "-"));
        lines.add(line(T0 + 8_900, "END", "node-C", "job", T0 + 6_000, 40, false, "-"));
        lines.add(line(T0 + 10_000, "START", "node-A", "job", T0 + 6_000, 41, false, "-"));
        lines.add(line(T0 + 10_100, "END", "node-A", "job", T0 + 6_000, 41, false, "-"));
        lines.add(line(T0 + 10_200, "START", "node-B", "job", T0 + 7_000, 42, false, "-"));
        lines.add(line(T0 + 10_300, "END", "node-B", "job", T0 + 7_000, 42, false, "-"));

        LedgerChecker.StartDelays d = checker.check(lines).startDelays();

        // 11 fire times: nine start 10 ms late, one 2.5 s, one 3.2 s; the nearest-rank p99 of 11 is the worst
        assertThat(d.measured()).isEqualTo(11);
        assertThat(d.worstMillis()).isEqualTo(3_200L);
        assertThat(d.p99Millis()).isEqualTo(3_200L);
        // in the window (5 .. 7.5 s with the 1 s margin), off node-B: fire time 6 s on node-C
        assertThat(d.worstInWindowMillis()).isEqualTo(2_500L);
        assertThat(d.worstInWindowFireTime()).isEqualTo(T0 + 6_000);
        assertThat(d.worstInWindowNode()).isEqualTo("node-C");
        assertThat(d.cell()).isEqualTo("3.2 s / 3.2 s; 2.5 s");
    }

    @Test
    void withoutAFaultThereIsNoWindowDelay() {
        LedgerChecker.StartDelays d = checker.check(clean()).startDelays();

        assertThat(d.worstMillis()).isEqualTo(10L);
        assertThat(d.worstInWindowMillis()).isNull();
        assertThat(d.cell()).isEqualTo("0.0 s / 0.0 s; -");
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

    // ---- the retry job: judged per fire time by RetryVerdict ----

    private static final String RJ = "retry-job";
    private final LedgerChecker retryChecker = new LedgerChecker(Map.of("job", Duration.ofSeconds(1)),
            Duration.ofSeconds(1), Duration.ZERO, new RetryVerdict.RetryJob(RJ, 3, Duration.ofSeconds(5)));

    /** Fire times T0 and T0+10 s, each failing twice and running its third attempt, on node-A then node-B. */
    private static List<String> retries() {
        List<String> lines = clean();
        long token = 100;
        for (long fire : new long[] {T0, T0 + 10_000}) {
            String[] nodes = fire == T0 ? new String[] {"node-A", "node-A", "node-B"}
                    : new String[] {"node-C", "node-C", "node-C"};
            for (int a = 1; a <= 3; a++) {
                long at = fire - 3_000 + (a - 1) * 1_500L;
                token++;
                lines.add(line(at, "START", nodes[a - 1], RJ, fire, token, false, Integer.toString(a)));
                lines.add(line(at + 500, "END", nodes[a - 1], RJ, fire, token, false, Integer.toString(a)));
                lines.add(line(at + 501, "OUTCOME", nodes[a - 1], RJ, fire, token, false,
                        (a < 3 ? "RETRY_PENDING" : "RAN") + ":" + a));
            }
        }
        // STOP at T0 + 10.5 s: the second fire time (first start T0 + 7 s) is within the 5 s settle, not judged
        return lines;
    }

    @Test
    void fireTimesThatFailTwiceAndRanTheirThirdAttemptOnceHaveNoFinding() {
        RetryVerdict v = retryChecker.check(retries()).retry();

        assertThat(v.fireTimes()).isEqualTo(2);
        assertThat(v.unsettled()).isEqualTo(1);
        assertThat(v.attemptsRunTwice() + v.withoutOneFinal() + v.notConsecutive() + v.tokensNotRising()
                + v.startedAfterFinal() + v.outcomeMismatch()).isZero();
        assertThat(v.finalOutcomes()).isEqualTo(Map.of("RAN", 1));
        assertThat(v.onTwoNodes()).isEqualTo(1);
        assertThat(v.byFireTime().get(T0).nodes()).containsExactly("node-A", "node-A", "node-B");
        assertThat(v.cell()).isEqualTo("0 / 0 of 2");
    }

    @Test
    void anAttemptStartedTwiceWithoutADeathIsRunTwice() {
        List<String> lines = retries();
        lines.add(line(T0 - 1_400, "START", "node-C", RJ, T0, 150, false, "2"));
        lines.add(line(T0 - 1_000, "END", "node-C", RJ, T0, 150, false, "2"));

        RetryVerdict v = retryChecker.check(lines).retry();

        assertThat(v.attemptsRunTwice()).isEqualTo(1);
        assertThat(v.rerunAfterDeath()).isZero();
        assertThat(v.findings()).anyMatch(f -> f.contains("attempt started twice"));
    }

    @Test
    void aDeadAttemptRerunWithAHigherTokenIsNotRunTwiceButWithALowerOneIs() {
        // attempt 2 of T0 dies with node-A (no end line, node-A killed), and runs again on node-B
        List<String> lines = deadSecondAttempt();
        lines.add(line(T0 + 2_000, "START", "node-B", RJ, T0, 110, false, "2"));
        lines.add(line(T0 + 2_500, "END", "node-B", RJ, T0, 110, false, "2"));
        lines.add(line(T0 + 2_501, "OUTCOME", "node-B", RJ, T0, 110, false, "RETRY_PENDING:2"));
        lines.add(line(T0 + 3_500, "START", "node-B", RJ, T0, 111, false, "3"));
        lines.add(line(T0 + 4_000, "END", "node-B", RJ, T0, 111, false, "3"));
        lines.add(line(T0 + 4_001, "OUTCOME", "node-B", RJ, T0, 111, false, "RAN:3"));

        RetryVerdict v = retryChecker.check(lines).retry();
        assertThat(v.rerunAfterDeath()).isEqualTo(1);
        assertThat(v.died()).isEqualTo(1);
        assertThat(v.attemptsRunTwice() + v.notConsecutive() + v.tokensNotRising() + v.outcomeMismatch()).isZero();

        List<String> lower = deadSecondAttempt();
        lower.add(line(T0 + 2_000, "START", "node-B", RJ, T0, 90, false, "2"));
        lower.add(line(T0 + 2_500, "END", "node-B", RJ, T0, 90, false, "2"));
        lower.add(line(T0 + 2_501, "OUTCOME", "node-B", RJ, T0, 90, false, "RETRIES_EXHAUSTED:2"));
        RetryVerdict w = retryChecker.check(lower).retry();
        assertThat(w.attemptsRunTwice()).isEqualTo(1);
        assertThat(w.tokensNotRising()).isEqualTo(1);
    }

    @Test
    void aDeadAttemptReportedAbandonedOnceHasOneFinalOutcome() {
        List<String> lines = deadSecondAttempt();
        lines.add(line(T0 + 7_000, "OUTCOME", "node-B", RJ, T0, -1, false, "ABANDONED:1"));

        RetryVerdict v = retryChecker.check(lines).retry();

        assertThat(v.finalOutcomes()).isEqualTo(Map.of("ABANDONED", 1));
        assertThat(v.withoutOneFinal() + v.outcomeMismatch() + v.startedAfterFinal()).isZero();

        // reported twice, or run after it was abandoned: findings
        List<String> twice = deadSecondAttempt();
        twice.add(line(T0 + 7_000, "OUTCOME", "node-B", RJ, T0, -1, false, "ABANDONED:1"));
        twice.add(line(T0 + 7_100, "OUTCOME", "node-C", RJ, T0, -1, false, "ABANDONED:1"));
        twice.add(line(T0 + 7_200, "START", "node-C", RJ, T0, 120, false, "3"));
        twice.add(line(T0 + 7_700, "END", "node-C", RJ, T0, 120, false, "3"));
        RetryVerdict w = retryChecker.check(twice).retry();
        assertThat(w.withoutOneFinal()).isEqualTo(1);
        assertThat(w.startedAfterFinal()).isEqualTo(1);
        assertThat(w.cell()).isEqualTo("0 / 1 of 2");
    }

    @Test
    void aFireTimeWithoutAFinalOutcomeOrWithAMismatchedOneIsAFinding() {
        List<String> none = retries();
        none.removeIf(l -> l.contains("\tRAN:3") && l.contains("\t" + T0 + "\t"));
        assertThat(retryChecker.check(none).retry().withoutOneFinal()).isEqualTo(1);

        // a final outcome written after STOP (the nodes' shutdown) does not count
        List<String> late = retries();
        late.replaceAll(l -> l.contains("\t" + T0 + "\t") && l.endsWith("RAN:3")
                ? (T0 + 20_000) + l.substring(l.indexOf('\t')) : l);
        assertThat(retryChecker.check(late).retry().withoutOneFinal()).isEqualTo(1);

        // superseded although its last attempt (3) succeeded: does not match
        List<String> mismatched = retries();
        mismatched.replaceAll(l -> l.contains("\t" + T0 + "\t") && l.endsWith("RAN:3")
                ? l.replace("RAN:3", "RETRY_SUPERSEDED:1") : l);
        RetryVerdict v = retryChecker.check(mismatched).retry();
        assertThat(v.outcomeMismatch()).isEqualTo(1);
        assertThat(v.withoutOneFinal()).isZero();
    }

    @Test
    void attemptsOutOfOrderOrWithFallingTokensAreFindings() {
        List<String> lines = retries();
        // T0's attempt 2 has a token below attempt 1's
        lines.replaceAll(l -> l.contains("\t" + T0 + "\t102\t") ? l.replace("\t102\t", "\t50\t") : l);
        RetryVerdict v = retryChecker.check(lines).retry();
        assertThat(v.tokensNotRising()).isEqualTo(1);

        List<String> gap = retries();
        gap.removeIf(l -> l.contains("\t" + T0 + "\t102\t"));
        RetryVerdict w = retryChecker.check(gap).retry();
        assertThat(w.notConsecutive()).isEqualTo(1);
    }

    /** retries() where T0's attempt 2, on node-A, has no end: node-A was SIGKILLed during it. */
    private static List<String> deadSecondAttempt() {
        List<String> lines = retries();
        lines.removeIf(l -> l.contains("\t" + RJ + "\t" + T0 + "\t") && !l.contains("\t101\t"));
        lines.add(line(T0 - 1_500, "START", "node-A", RJ, T0, 102, false, "2"));
        lines.add(runner(T0 - 1_300, "KILLED", "node-A"));
        return lines;
    }

    private static String runner(long wall, String event, String subject) {
        return line(wall, event, "runner", subject, 0, -1, false, "-");
    }

    private static String line(long wall, String event, String node, String job, long id, long token, boolean lost,
                               String keys) {
        return wall + "\t" + event + "\t" + node + "\t" + job + "\t" + id + "\t" + token + "\t" + lost + "\t" + keys;
    }
}
