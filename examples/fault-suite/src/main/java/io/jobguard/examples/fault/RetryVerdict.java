package io.jobguard.examples.fault;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checker's verdict on a job that retries failed runs, judged per fire time from the ledgers alone: the nodes'
 * {@code START}/{@code END} lines of the job (last field: the attempt), their {@code OUTCOME} lines (last field:
 * {@code <outcome>:<attempt>}, as job-guard reported it to a listener on that node) and the runner's {@code KILLED}
 * and {@code STOP} lines. The job's body fails every attempt but the last ({@link RetryJob#attempts()}).
 *
 * <p>Per fire time that started: no attempt started twice, except an attempt whose run died with its SIGKILLed node
 * and was started again with a higher fencing token; attempts start in order from 1 without gaps; fencing tokens rise
 * from each start to the next; exactly one final outcome ({@link #FINAL}) was reported in the cluster, and it matches
 * the attempts (a success on the last attempt, which ended; {@code ABANDONED} after an attempt that never ended;
 * {@code RETRY_SUPERSEDED} or {@code RETRIES_EXHAUSTED} after one that ended and failed); nothing started after it.
 * Outcomes written after {@code STOP} (the nodes' shutdown) are not counted; a fire time first started within
 * {@link RetryJob#settle()} of {@code STOP} and without a final outcome by then is not judged on it (<em>unsettled</em>):
 * the run ended before it could settle.
 *
 * @param fireTimes           fire times of the job that started before {@code STOP}
 * @param attemptsRunTwice    (fire time, attempt) pairs started more than once, other than the re-run of a dead one
 * @param withoutOneFinal     fire times with no final outcome by {@code STOP} (unsettled ones aside), or more than one
 * @param notConsecutive      fire times whose attempts did not start as 1, 2, ... (a dead attempt's re-run aside)
 * @param tokensNotRising     fire times where a start's fencing token was not above the previous start's
 * @param startedAfterFinal   fire times with a start after their final outcome was reported
 * @param outcomeMismatch     fire times whose one final outcome does not match their attempts (see above)
 * @param onTwoNodes          fire times whose attempts ran on two or more nodes
 * @param died                attempts whose node was SIGKILLed while they ran (a start with no end)
 * @param rerunAfterDeath     attempts started again after their run died (allowed once per death, higher token)
 * @param unsettled           fire times first started in the run's last {@link RetryJob#settle()} and without a
 *                            final outcome by {@code STOP}, not judged on it
 * @param finalOutcomes       how often each final outcome ended a fire time, by the outcome's name
 * @param byFireTime          every fire time's attempts and outcomes, by nominal fire time (epoch ms)
 * @param findings            one line per fire time that broke a rule, for the notes
 */
public record RetryVerdict(int fireTimes, int attemptsRunTwice, int withoutOneFinal, int notConsecutive,
                           int tokensNotRising, int startedAfterFinal, int outcomeMismatch, int onTwoNodes, int died,
                           int rerunAfterDeath, int unsettled, Map<String, Integer> finalOutcomes,
                           Map<Long, FireTime> byFireTime, List<String> findings) {

    /** The outcomes that end a fire time; {@code RETRY_PENDING} does not (another attempt follows). */
    public static final Set<String> FINAL = Set.of("RAN", "RETRIED", "CAUGHT_UP", "FAILED", "RETRIES_EXHAUSTED",
            "ABANDONED", "RETRY_SUPERSEDED", "HISTORY_LOST", "MISSED");
    private static final Set<String> SUCCESS = Set.of("RAN", "RETRIED", "CAUGHT_UP");

    /**
     * Which job retries and what the checker may know of it.
     *
     * @param name     the job's name in the ledgers
     * @param attempts the attempts a fire time gets; every one but the last fails
     * @param settle   how long after a fire time's first start its final outcome may still be outstanding (the
     *                 period and the clock spread of the nodes, a dead attempt's lease, the back-offs)
     */
    public record RetryJob(String name, int attempts, Duration settle) {
    }

    /**
     * One started attempt.
     *
     * @param attempt the attempt, from 1
     * @param node    the node that ran it
     * @param token   its fencing token
     * @param wall    when its start line was written (epoch ms, the machine's clock)
     * @param ended   whether its end line was written
     * @param died    whether it has no end line and its node was SIGKILLed after it started
     */
    public record Attempt(int attempt, String node, long token, long wall, boolean ended, boolean died) {
    }

    /**
     * One outcome a node reported for the fire time.
     *
     * @param outcome the outcome's name
     * @param attempt the event's attempt
     * @param node    the reporting node
     * @param token   the event's fencing token (-1 when nothing ran)
     * @param wall    when the line was written
     */
    public record Outcome(String outcome, int attempt, String node, long token, long wall) {

        boolean isFinal() {
            return FINAL.contains(outcome);
        }
    }

    /**
     * One fire time of the job.
     *
     * @param nominalFireTime the fire time (epoch ms)
     * @param attempts        its starts, in the order they were written
     * @param outcomes        the outcomes reported for it, in the order they were written
     */
    public record FireTime(long nominalFireTime, List<Attempt> attempts, List<Outcome> outcomes) {

        /**
         * The final outcomes reported for this fire time.
         *
         * @return them, in the order they were written
         */
        public List<Outcome> finals() {
            return outcomes.stream().filter(Outcome::isFinal).toList();
        }

        /**
         * The nodes its attempts ran on, in attempt order.
         *
         * @return node names, one per start
         */
        public List<String> nodes() {
            return attempts.stream().map(Attempt::node).toList();
        }
    }

    /**
     * Judges the job's lines.
     *
     * @param events every ledger event, sorted by wall time
     * @param job    the job
     * @param killed the nodes the runner SIGKILLed, with when
     * @param stop   the runner's {@code STOP}
     * @return the verdict
     */
    static RetryVerdict judge(List<LedgerChecker.Event> events, RetryJob job, Map<String, Long> killed, long stop) {
        Map<String, Boolean> ends = new LinkedHashMap<>();
        TreeMap<Long, List<LedgerChecker.Event>> starts = new TreeMap<>();
        TreeMap<Long, List<Outcome>> outcomes = new TreeMap<>();
        for (LedgerChecker.Event e : events) {
            if (!e.job().equals(job.name())) {
                continue;
            }
            switch (e.event()) {
                case NodeLedger.START -> starts.computeIfAbsent(e.id(), x -> new ArrayList<>()).add(e);
                case NodeLedger.END -> ends.put(key(e), true);
                case NodeLedger.OUTCOME -> {
                    String[] o = e.keys().isEmpty() ? new String[0] : e.keys().get(0).split(":");
                    if (o.length == 2) {
                        outcomes.computeIfAbsent(e.id(), x -> new ArrayList<>())
                                .add(new Outcome(o[0], Integer.parseInt(o[1]), e.node(), e.token(), e.wall()));
                    }
                }
                default -> {
                    // not a line of this job's runs
                }
            }
        }
        int fireTimes = 0;
        int twice = 0;
        int gaps = 0;
        int tokens = 0;
        int notOne = 0;
        int after = 0;
        int mismatch = 0;
        int twoNodes = 0;
        int died = 0;
        int reruns = 0;
        int unsettled = 0;
        Map<String, Integer> finals = new TreeMap<>();
        Map<Long, FireTime> byFireTime = new LinkedHashMap<>();
        List<String> findings = new ArrayList<>();
        for (Map.Entry<Long, List<LedgerChecker.Event>> fire : starts.entrySet()) {
            long firstStart = fire.getValue().get(0).wall();
            if (firstStart > stop) {
                continue; // started while the nodes were being stopped: not observed
            }
            fireTimes++;
            List<Attempt> attempts = fire.getValue().stream()
                    .sorted(Comparator.comparingLong(LedgerChecker.Event::wall).thenComparingLong(LedgerChecker.Event::token))
                    .map(s -> {
                        boolean ended = ends.containsKey(key(s));
                        Long kill = killed.get(s.node());
                        return new Attempt(attemptOf(s), s.node(), s.token(), s.wall(), ended,
                                !ended && kill != null && kill >= s.wall());
                    }).toList();
            FireTime ft = new FireTime(fire.getKey(), attempts, outcomes.getOrDefault(fire.getKey(), List.of()));
            byFireTime.put(fire.getKey(), ft);
            String at = job.name() + "@" + LedgerChecker.fireTimeText(fire.getKey());
            died += (int) attempts.stream().filter(Attempt::died).count();
            if (attempts.stream().map(Attempt::node).distinct().count() > 1) {
                twoNodes++;
            }

            // an attempt started twice: allowed only as the re-run of a run that died, with a higher token
            Map<Integer, Attempt> lastOf = new LinkedHashMap<>();
            boolean repeated = false;
            for (Attempt a : attempts) {
                Attempt before = lastOf.put(a.attempt(), a);
                if (before != null) {
                    if (before.died() && a.token() > before.token()) {
                        reruns++;
                    } else {
                        repeated = true;
                    }
                }
            }
            if (repeated) {
                twice++;
                findings.add(at + " attempt started twice " + attempts);
            }

            // 1, 2, 3 ... in start order; a dead attempt's re-run repeats its number
            int expected = 1;
            boolean consecutive = !attempts.isEmpty() && attempts.get(0).attempt() == 1;
            for (Attempt a : attempts) {
                if (a.attempt() == expected) {
                    expected++;
                } else if (a.attempt() != expected - 1) {
                    consecutive = false;
                }
            }
            if (!consecutive) {
                gaps++;
                findings.add(at + " attempts not consecutive " + attempts);
            }

            for (int i = 1; i < attempts.size(); i++) {
                if (attempts.get(i).token() <= attempts.get(i - 1).token()) {
                    tokens++;
                    findings.add(at + " token not rising " + attempts);
                    break;
                }
            }

            // outcomes written after STOP are the nodes' shutdown (a run that gives its lease up ends FAILED): not judged
            List<Outcome> ended = ft.finals().stream().filter(o -> o.wall() <= stop).toList();
            if (ended.isEmpty() && firstStart > stop - job.settle().toMillis()) {
                unsettled++;
                continue;
            }
            Attempt last = attempts.get(attempts.size() - 1);
            if (ended.size() != 1) {
                notOne++;
                findings.add(at + " " + ended.size() + " final outcome(s) " + ft.outcomes());
            }
            if (ended.isEmpty()) {
                continue;
            }
            Outcome end = ended.get(0);
            finals.merge(end.outcome(), 1, Integer::sum);
            if (attempts.stream().anyMatch(a -> a.wall() > end.wall())) {
                after++;
                findings.add(at + " started after its final outcome " + end.outcome());
            }
            if (!matches(end, last, job.attempts())) {
                mismatch++;
                findings.add(at + " final outcome " + end.outcome() + ":" + end.attempt() + " after " + attempts);
            }
        }
        return new RetryVerdict(fireTimes, twice, notOne, gaps, tokens, after, mismatch, twoNodes, died, reruns,
                unsettled, Collections.unmodifiableMap(finals), Collections.unmodifiableMap(byFireTime),
                List.copyOf(findings));
    }

    /** Whether a fire time's one final outcome fits its last attempt (the body fails every attempt but the last). */
    private static boolean matches(Outcome end, Attempt last, int attempts) {
        if (SUCCESS.contains(end.outcome())) {
            return last.ended() && end.attempt() == last.attempt() && last.attempt() == attempts;
        }
        return switch (end.outcome()) {
            case "ABANDONED" -> !last.ended();
            case "RETRY_SUPERSEDED" -> last.ended() && last.attempt() < attempts;
            case "RETRIES_EXHAUSTED", "FAILED" -> last.ended() && end.attempt() == last.attempt();
            default -> false;
        };
    }

    private static int attemptOf(LedgerChecker.Event start) {
        try {
            return start.keys().isEmpty() ? 0 : Integer.parseInt(start.keys().get(0));
        } catch (NumberFormatException e) {
            return 0; // not an attempt: judged as not consecutive
        }
    }

    private static String key(LedgerChecker.Event e) {
        return e.node() + "|" + e.id() + "|" + e.token();
    }

    /**
     * The table cell: attempts run twice / fire times without one final outcome, of the fire times started.
     *
     * @return the cell's text
     */
    String cell() {
        return attemptsRunTwice + " / " + withoutOneFinal + " of " + fireTimes;
    }

    /**
     * The notes: the final outcomes seen, fire times on two nodes, deaths and re-runs, then each broken rule.
     *
     * @return note texts
     */
    List<String> notes() {
        List<String> notes = new ArrayList<>();
        StringBuilder s = new StringBuilder("retry: ");
        s.append(finalOutcomes.isEmpty() ? "no final outcome" : String.join(", ", finalOutcomes.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey()).toList()));
        if (onTwoNodes > 0) {
            s.append(", ").append(onTwoNodes).append(" on two nodes");
        }
        if (died > 0) {
            s.append(", ").append(died).append(" attempt(s) died");
        }
        if (rerunAfterDeath > 0) {
            s.append(", ").append(rerunAfterDeath).append(" re-run after death");
        }
        if (unsettled > 0) {
            s.append(", ").append(unsettled).append(" too close to STOP to judge");
        }
        notes.add(s.toString());
        int broken = notConsecutive + tokensNotRising + startedAfterFinal + outcomeMismatch;
        if (broken > 0) {
            notes.add("retry: " + notConsecutive + " not consecutive, " + tokensNotRising + " token not rising, "
                    + startedAfterFinal + " started after the final outcome, " + outcomeMismatch
                    + " outcome not matching");
        }
        findings.stream().limit(3).forEach(f -> notes.add("retry: " + f));
        return notes;
    }

    @Override
    public String toString() {
        return "RetryVerdict[" + cell() + ", " + notes() + ", fire times " + byFireTime.values().stream()
                .map(f -> Instant.ofEpochMilli(f.nominalFireTime()) + " " + f.attempts() + " " + f.outcomes())
                .toList() + "]";
    }
}
