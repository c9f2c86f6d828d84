package io.jobguard.examples.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The independent checker: reads only ledger files (the nodes' {@code *.ledger} and the runner's
 * {@code runner.ledger}, which holds the observation and fault window times) and judges them.
 * It knows nothing of Redis, job-guard or ShedLock, only the jobs' schedules.
 *
 * <p>A ledger line is {@code wallMillis event node job id token leaseLost keys}, tab-separated, wall
 * times being the machine's real clock (all JVMs run on one machine). Node events: {@code READY},
 * {@code START}/{@code END} of a run (id = nominal fire time in epoch ms), {@code BSTART}/{@code BEND}
 * of a batch lease (id = the node's lease sequence, keys comma-separated). Runner events:
 * {@code ALL_READY}, {@code FAULT_START}, {@code FAULT_END}, {@code KILLED} (job = the node
 * SIGKILLed), {@code NOTE} (job = what the runner observed, copied into the notes) and {@code STOP}.
 *
 * <p>Verdicts: a fire time <em>ran twice</em> if two starts name it; two runs of one job
 * <em>overlap</em> if their intervals intersect, <em>out of order</em> if the later start does not
 * carry the higher fencing token; a fire time of the observed range (from {@code ALL_READY} + edge to
 * {@code STOP} − edge) that nobody started is <em>never ran</em>, inside the fault window if it lies
 * in [fault start − margin, fault end + margin] (margin = the fleet's skew spread: a fire time is
 * attempted from 3 s before to 2 s after it), else outside; <em>recovery</em> is the time from the
 * fault's end to the first start of the first timed job; two batch leases holding one key at once
 * are <em>two holders</em>; a run that started more than the margin before its fire time is noted as
 * <em>early</em> (a node whose clock ran ahead claimed it). A run without an end line ends when its node was SIGKILLed, else at its
 * node's next line, else at {@code STOP}.
 *
 * <p><em>Start delays</em> ({@link StartDelays}), of the first timed job: per fire time of the observed range that
 * ran, its first {@code START} line's wall time minus the nominal fire time, both on the machine's real clock (the
 * start line is written by the node when the guarded method starts; the fire time is the grid instant, not a node's
 * skewed scheduler clock, so a node whose scheduler clock is 2 s behind starts its runs 2 s late). Reported as p99
 * and worst over the run, and the worst of the fire times in the widened fault window that ran on another node than
 * the one the fault hit (the runner's {@code HIT} line, else its {@code KILLED} one; every node when neither): how
 * late a fire time the hit node would have run started elsewhere. The retry job's first attempts are noted the same
 * way.
 *
 * <p>A job that retries failed runs (its {@code START}/{@code END} lines name the attempt, its {@code OUTCOME} lines
 * carry what job-guard reported on each node) is not one of the timed jobs above, whose fire times start once: it is
 * judged per fire time by {@link RetryVerdict}.
 */
public final class LedgerChecker {

    /** The runner's ledger file name. */
    public static final String RUNNER_LEDGER = "runner.ledger";

    /** Starts this close together are not ordered by their ledger times. */
    private static final long RACE_MILLIS = 100;
    private static final DateTimeFormatter FIRE_TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final Map<String, Duration> schedules;
    private final Duration margin;
    private final Duration edge;
    private final RetryVerdict.RetryJob retryJob;

    /**
     * Creates a checker.
     *
     * @param schedules the timed jobs and their periods (fire times on a grid of the period from epoch),
     *                  in table order; the first is the one recovery is measured on
     * @param margin    how far around the fault window a missed fire time still counts as inside it
     * @param edge      fire times this close to {@code ALL_READY} or {@code STOP} are not expected
     */
    public LedgerChecker(Map<String, Duration> schedules, Duration margin, Duration edge) {
        this(schedules, margin, edge, null);
    }

    /**
     * Creates a checker that also judges a job that retries failed runs ({@link RetryVerdict}).
     *
     * @param schedules the timed jobs and their periods, see {@link #LedgerChecker(Map, Duration, Duration)}
     * @param margin    how far around the fault window a missed fire time still counts as inside it
     * @param edge      fire times this close to {@code ALL_READY} or {@code STOP} are not expected
     * @param retryJob  the job that retries, or null for none
     */
    public LedgerChecker(Map<String, Duration> schedules, Duration margin, Duration edge,
                         RetryVerdict.RetryJob retryJob) {
        this.schedules = new LinkedHashMap<>(schedules);
        this.margin = margin;
        this.edge = edge;
        this.retryJob = retryJob;
    }

    /**
     * Checks every {@code *.ledger} file of a directory.
     *
     * @param dir the run's directory
     * @return the verdict
     */
    public Verdict check(Path dir) {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".ledger")).sorted().toList()) {
                lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ledgers in " + dir, e);
        }
        return check(lines);
    }

    /**
     * Checks ledger lines (of all files, in any order).
     *
     * @param lines the lines
     * @return the verdict
     */
    public Verdict check(List<String> lines) {
        List<Event> events = new ArrayList<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                Event e = Event.parse(line);
                if (e != null) {
                    events.add(e);
                }
            }
        }
        events.sort(Comparator.comparingLong(Event::wall));
        Long allReady = first(events, "ALL_READY");
        Long faultStart = first(events, "FAULT_START");
        Long faultEnd = first(events, "FAULT_END");
        Long stop = first(events, "STOP");
        if (allReady == null || stop == null) {
            throw new IllegalArgumentException("the runner's ledger has no ALL_READY or STOP line");
        }
        Map<String, Long> killed = new HashMap<>();
        events.stream().filter(e -> e.event.equals("KILLED")).forEach(e -> killed.putIfAbsent(e.job, e.wall));
        String hit = events.stream().filter(e -> e.event.equals("HIT")).map(Event::job).findFirst()
                .orElse(events.stream().filter(e -> e.event.equals("KILLED")).map(Event::job).findFirst().orElse(null));

        List<Interval> runs = intervals(events, "START", "END", killed, stop);
        List<Interval> holds = intervals(events, "BSTART", "BEND", killed, stop);
        List<String> notes = new ArrayList<>();

        int fireTimes = 0;
        int ranTwice = 0;
        int overlaps = 0;
        int outOfOrder = 0;
        int missInside = 0;
        int missOutside = 0;
        List<String> twice = new ArrayList<>();
        for (Map.Entry<String, Duration> job : schedules.entrySet()) {
            long period = job.getValue().toMillis();
            List<Interval> jobRuns = runs.stream().filter(r -> r.job.equals(job.getKey())).toList();
            TreeMap<Long, List<Interval>> byFire = new TreeMap<>();
            jobRuns.forEach(r -> byFire.computeIfAbsent(r.id, x -> new ArrayList<>()).add(r));
            for (Map.Entry<Long, List<Interval>> fire : byFire.entrySet()) {
                if (fire.getValue().size() > 1) {
                    ranTwice++;
                    twice.add(job.getKey() + "@" + fireTimeText(fire.getKey()) + "×"
                            + fire.getValue().size());
                }
            }
            long from = ceil(allReady + edge.toMillis(), period);
            long to = Math.floorDiv(stop - edge.toMillis(), period) * period;
            for (long nominalFireTimeMillis = from; nominalFireTimeMillis <= to; nominalFireTimeMillis += period) {
                fireTimes++;
                if (!byFire.containsKey(nominalFireTimeMillis)) {
                    boolean inside = faultStart != null && faultEnd != null
                            && nominalFireTimeMillis >= faultStart - margin.toMillis()
                            && nominalFireTimeMillis <= faultEnd + margin.toMillis();
                    if (inside) {
                        missInside++;
                    } else {
                        missOutside++;
                    }
                }
            }
            int[] pairs = overlapping(jobRuns, false);
            overlaps += pairs[0];
            outOfOrder += pairs[1];
            if (pairs[2] > 0) {
                notes.add(pairs[2] + " overlap(s) of " + job.getKey() + " without tokens");
            }
            tokenNotes(job.getKey(), jobRuns, notes);
            long early = jobRuns.stream().filter(r -> r.start < r.id - margin.toMillis()).count();
            if (early > 0) {
                notes.add(early + " run(s) of " + job.getKey() + " started over " + margin.toSeconds()
                        + " s before their fire time");
            }
        }
        if (!twice.isEmpty()) {
            notes.add("ran twice (job@fire time UTC): " + String.join(" ", twice.subList(0, Math.min(6, twice.size())))
                    + (twice.size() > 6 ? " …" : ""));
        }
        int[] batchPairs = overlapping(holds, true);
        tokenNotes("batch", holds, notes);
        long lost = runs.stream().filter(r -> r.leaseLost).count() + holds.stream().filter(r -> r.leaseLost).count();
        if (lost > 0) {
            notes.add(lost + " run(s)/batch(es) told lease lost");
        }
        events.stream().filter(e -> e.event.equals("NOTE")).forEach(e -> notes.add(e.job));
        Long recovery = null;
        if (faultEnd != null && !schedules.isEmpty()) {
            String firstJob = schedules.keySet().iterator().next();
            long end = faultEnd;
            recovery = runs.stream().filter(r -> r.job.equals(firstJob) && r.start >= end)
                    .mapToLong(r -> r.start - end).min().stream().boxed().findFirst().orElse(null);
        }
        StartDelays delays = null;
        if (!schedules.isEmpty()) {
            Map.Entry<String, Duration> firstJob = schedules.entrySet().iterator().next();
            long period = firstJob.getValue().toMillis();
            Long windowFrom = faultStart == null || faultEnd == null ? null : faultStart - margin.toMillis();
            Long windowTo = faultStart == null || faultEnd == null ? null : faultEnd + margin.toMillis();
            delays = StartDelays.of(firstJob.getKey(), runs.stream().filter(r -> r.job.equals(firstJob.getKey())).toList(),
                    ceil(allReady + edge.toMillis(), period), Math.floorDiv(stop - edge.toMillis(), period) * period,
                    windowFrom, windowTo, hit);
            if (delays.worstInWindowFireTime() != null) {
                notes.add("worst start delay in the fault window"
                        + (hit == null ? "" : " off " + hit) + ": " + firstJob.getKey() + "@"
                        + fireTimeText(delays.worstInWindowFireTime()) + " on " + delays.worstInWindowNode() + ", "
                        + seconds(delays.worstInWindowMillis()));
            }
        }
        RetryVerdict retry = retryJob == null ? null : RetryVerdict.judge(events, retryJob, killed, stop);
        if (retry != null && retry.fireTimes() > 0) {
            notes.addAll(retry.notes());
        }
        if (retryJob != null) {
            firstAttemptNote(events, hit, notes);
        }
        return new Verdict(fireTimes, ranTwice, overlaps, outOfOrder, missInside, missOutside,
                faultEnd == null ? null : recovery, batchPairs[0], batchPairs[1], holds.size(), runs.size(),
                List.copyOf(notes), retry, delays);
    }

    /**
     * The retry job's first attempts: the worst start delay (first attempt's start minus its fire time), and the worst
     * of those that ran on another node than the hit one, as a note.
     */
    private void firstAttemptNote(List<Event> events, String hit, List<String> notes) {
        Map<Long, Event> first = new TreeMap<>();
        for (Event e : events) {
            if (e.event.equals("START") && e.job.equals(retryJob.name()) && e.keys.equals(List.of("1"))) {
                first.putIfAbsent(e.id, e);
            }
        }
        Event worst = first.values().stream().max(Comparator.comparingLong(e -> e.wall - e.id)).orElse(null);
        if (worst == null) {
            return;
        }
        Event worstElsewhere = hit == null ? null : first.values().stream().filter(e -> !e.node.equals(hit))
                .max(Comparator.comparingLong(e -> e.wall - e.id)).orElse(null);
        notes.add(retryJob.name() + " attempt 1 start delay, worst of " + first.size() + ": "
                + seconds(worst.wall - worst.id) + " (@" + fireTimeText(worst.id) + " on " + worst.node + ")"
                + (worstElsewhere == null ? "" : ", off " + hit + ": " + seconds(worstElsewhere.wall - worstElsewhere.id)
                + " (@" + fireTimeText(worstElsewhere.id) + " on " + worstElsewhere.node + ")"));
    }

    /** Milliseconds as the table prints them: seconds with one decimal. */
    static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    /**
     * Pairs of intervals that intersect: [pairs, pairs whose later start has a token not above the
     * earlier one's (both known), pairs with an unknown token]. For batches only pairs sharing a key count.
     */
    private static int[] overlapping(List<Interval> intervals, boolean sharedKeyOnly) {
        List<Interval> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparingLong((Interval i) -> i.start).thenComparingLong(i -> i.token));
        int pairs = 0;
        int outOfOrder = 0;
        int unfenced = 0;
        for (int i = 0; i < sorted.size(); i++) {
            Interval a = sorted.get(i);
            for (int j = i + 1; j < sorted.size() && sorted.get(j).start < a.end; j++) {
                Interval b = sorted.get(j);
                if (sharedKeyOnly && a.keys.stream().noneMatch(b.keys::contains)) {
                    continue;
                }
                pairs++;
                if (a.token < 0 || b.token < 0) {
                    unfenced++;
                } else if (b.token <= a.token) {
                    outOfOrder++;
                }
            }
        }
        return new int[] {pairs, outOfOrder, unfenced};
    }

    /**
     * Tokens that went backwards (a start with a lower token than one that started over 100 ms before)
     * and tokens handed out twice.
     */
    private static void tokenNotes(String what, List<Interval> intervals, List<String> notes) {
        List<Interval> fenced = intervals.stream().filter(i -> i.token >= 0)
                .sorted(Comparator.comparingLong((Interval i) -> i.start)).toList();
        int backwards = 0;
        Map<Long, Integer> seen = new HashMap<>();
        long max = Long.MIN_VALUE;
        int earlier = 0;
        for (Interval i : fenced) {
            // compare with runs that started over RACE_MILLIS before: two nodes that acquire within a few
            // milliseconds may write their start lines in either order
            while (earlier < fenced.size() && fenced.get(earlier).start < i.start - RACE_MILLIS) {
                max = Math.max(max, fenced.get(earlier).token);
                earlier++;
            }
            if (i.token < max) {
                backwards++;
            }
            seen.merge(i.token, 1, Integer::sum);
        }
        long reused = seen.values().stream().filter(n -> n > 1).count();
        if (backwards > 0) {
            notes.add(what + ": token went backwards " + backwards + "×");
        }
        if (reused > 0) {
            notes.add(what + ": " + reused + " token(s) handed out twice");
        }
    }

    private static List<Interval> intervals(List<Event> events, String startEvent, String endEvent,
                                            Map<String, Long> killed, long stop) {
        Map<String, Event> ends = new HashMap<>();
        for (Event e : events) {
            if (e.event.equals(endEvent)) {
                ends.putIfAbsent(e.node + "|" + e.job + "|" + e.id + "|" + e.token, e);
            }
        }
        List<Interval> out = new ArrayList<>();
        for (int k = 0; k < events.size(); k++) {
            Event s = events.get(k);
            if (!s.event.equals(startEvent)) {
                continue;
            }
            Event end = ends.get(s.node + "|" + s.job + "|" + s.id + "|" + s.token);
            long endTime;
            boolean lost = false;
            if (end != null) {
                endTime = end.wall;
                lost = end.leaseLost;
            } else {
                Long kill = killed.get(s.node);
                endTime = kill != null && kill >= s.wall ? kill : nextOfNode(events, k, s.node, stop);
            }
            out.add(new Interval(s.job, s.node, s.id, s.wall, endTime, s.token, lost, s.keys));
        }
        return out;
    }

    private static long nextOfNode(List<Event> events, int from, String node, long stop) {
        for (int k = from + 1; k < events.size(); k++) {
            if (events.get(k).node.equals(node)) {
                return events.get(k).wall;
            }
        }
        return Math.max(stop, events.get(from).wall);
    }

    private static Long first(List<Event> events, String name) {
        return events.stream().filter(e -> e.event.equals(name)).map(Event::wall).findFirst().orElse(null);
    }

    /** A fire time as the notes print it: UTC time of day. */
    static String fireTimeText(long epochMillis) {
        return FIRE_TIME.format(Instant.ofEpochMilli(epochMillis));
    }

    private static long ceil(long value, long period) {
        return -Math.floorDiv(-value, period) * period;
    }

    private record Interval(String job, String node, long id, long start, long end, long token, boolean leaseLost,
                            List<String> keys) {
    }

    /** One parsed ledger line; lines cut by SIGKILL parse to null. */
    record Event(long wall, String event, String node, String job, long id, long token, boolean leaseLost,
                         List<String> keys) {

        static Event parse(String line) {
            String[] f = line.split("\t", -1);
            if (f.length < 8) {
                return null; // a line cut by SIGKILL
            }
            try {
                return new Event(Long.parseLong(f[0]), f[1], f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]),
                        Boolean.parseBoolean(f[6]), f[7].equals("-") ? List.of() : Arrays.asList(f[7].split(",")));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * How late the first timed job's fire times started: per fire time that ran, its first start's wall time minus the
     * nominal fire time (the machine's real clock; negative when a node whose scheduler clock runs ahead started it
     * early).
     *
     * @param job                   the job measured
     * @param measured              fire times of the observed range that ran
     * @param p99Millis             their 99th percentile (nearest rank), null when none ran
     * @param worstMillis           their worst, null when none ran
     * @param worstInWindowMillis   the worst of the fire times in the widened fault window (any fire time, observed
     *                              range or not) whose first start was on another node than the hit one; null without a
     *                              fault window or such a start
     * @param worstInWindowFireTime that fire time (epoch ms), or null
     * @param worstInWindowNode     the node that started it, or null
     */
    public record StartDelays(String job, int measured, Long p99Millis, Long worstMillis, Long worstInWindowMillis,
                              Long worstInWindowFireTime, String worstInWindowNode) {

        static StartDelays of(String job, List<Interval> runs, long from, long to, Long windowFrom, Long windowTo,
                              String hit) {
            Map<Long, Interval> first = new TreeMap<>();
            for (Interval r : runs) {
                first.merge(r.id, r, (a, b) -> b.start < a.start ? b : a);
            }
            long[] delays = first.values().stream().filter(r -> r.id >= from && r.id <= to)
                    .mapToLong(r -> r.start - r.id).sorted().toArray();
            Long p99 = delays.length == 0 ? null : delays[(int) Math.ceil(0.99 * delays.length) - 1];
            Long worst = delays.length == 0 ? null : delays[delays.length - 1];
            Interval inWindow = windowFrom == null ? null : first.values().stream()
                    .filter(r -> r.id >= windowFrom && r.id <= windowTo && (hit == null || !r.node.equals(hit)))
                    .max(Comparator.comparingLong(r -> r.start - r.id)).orElse(null);
            return new StartDelays(job, delays.length, p99, worst, inWindow == null ? null : inWindow.start - inWindow.id,
                    inWindow == null ? null : inWindow.id, inWindow == null ? null : inWindow.node);
        }

        /** The table's cell: {@code p99 / worst; in the window: worst}. */
        String cell() {
            if (worstMillis == null) {
                return "-";
            }
            return seconds(p99Millis) + " / " + seconds(worstMillis) + "; "
                    + (worstInWindowMillis == null ? "-" : seconds(worstInWindowMillis));
        }
    }

    /**
     * The checker's verdict on one run of one scenario.
     *
     * @param fireTimes       expected fire times of the timed jobs in the observed range
     * @param ranTwice        fire times started more than once (any fire time, observed range or not)
     * @param overlaps        pairs of runs of one job that overlapped in time
     * @param outOfOrder      of those, pairs where the later run did not have the higher fencing token
     * @param missedInside    expected fire times nobody ran, inside the fault window
     * @param missedOutside   expected fire times nobody ran, outside it
     * @param recoveryMillis  fault end to the first start of the first job; null without a fault or a run after it
     * @param batchTwoHolders pairs of batch leases that held one key at the same time
     * @param batchOutOfOrder of those, pairs where the later lease did not have the higher fencing token
     * @param batches         batch leases recorded
     * @param runs            job runs recorded
     * @param notes           details: tokens backwards or reused, lease-lost runs, which fire times ran twice, the
     *                        retry job's outcomes and findings
     * @param retry           the retry job's verdict, or null when the checker judges none
     * @param startDelays     how late the first timed job's fire times started, or null without timed jobs
     */
    public record Verdict(int fireTimes, int ranTwice, int overlaps, int outOfOrder, int missedInside,
                          int missedOutside, Long recoveryMillis, int batchTwoHolders, int batchOutOfOrder,
                          int batches, int runs,
                          List<String> notes, RetryVerdict retry, StartDelays startDelays) {
    }
}
