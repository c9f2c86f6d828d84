package io.jobguard.examples.support;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who ran which nominal fire time, as the demos record it ({@code <T millis>|<node>} entries), and
 * the verdict: duplicates (a fire time run more than once: must never happen) and misses (a fire
 * time in a window where every node was up that nobody ran).
 */
public final class RunLedger {

    private final TreeMap<Instant, List<String>> runs = new TreeMap<>();

    /**
     * Encodes one run.
     *
     * @param nominalFireTime the nominal fire time
     * @param node            who ran it
     * @return the entry
     */
    public static String entry(Instant nominalFireTime, String node) {
        return nominalFireTime.toEpochMilli() + "|" + node;
    }

    /**
     * Builds a ledger from recorded entries.
     *
     * @param entries the entries
     * @return the ledger
     */
    public static RunLedger of(Collection<String> entries) {
        RunLedger ledger = new RunLedger();
        for (String e : entries) {
            int bar = e.indexOf('|');
            Instant nominalFireTime = Instant.ofEpochMilli(Long.parseLong(e.substring(0, bar)));
            ledger.runs.computeIfAbsent(nominalFireTime, x -> new ArrayList<>()).add(e.substring(bar + 1));
        }
        return ledger;
    }

    /**
     * Fire times run more than once.
     *
     * @return the duplicated fire times with their nodes
     */
    public Map<Instant, List<String>> duplicates() {
        TreeMap<Instant, List<String>> out = new TreeMap<>();
        runs.forEach((nominalFireTime, nodes) -> {
            if (nodes.size() > 1) {
                out.put(nominalFireTime, nodes);
            }
        });
        return out;
    }

    /**
     * Fire times of a fixed grid that nobody ran.
     *
     * @param from   first fire time of the window (on the grid)
     * @param to     last fire time of the window
     * @param period the grid's period
     * @return the missed fire times
     */
    public List<Instant> misses(Instant from, Instant to, Duration period) {
        List<Instant> out = new ArrayList<>();
        for (Instant nominalFireTime = from; !nominalFireTime.isAfter(to); nominalFireTime = nominalFireTime.plus(period)) {
            if (!runs.containsKey(nominalFireTime)) {
                out.add(nominalFireTime);
            }
        }
        return out;
    }

    /**
     * All runs, by fire time.
     *
     * @return fire time to the nodes that ran it
     */
    public Map<Instant, List<String>> runs() {
        return runs;
    }

    /**
     * A printable table of the window: fire time, node(s), verdict.
     *
     * @param from   first fire time shown
     * @param to     last fire time shown
     * @param period the grid's period
     * @return the table
     */
    public String table(Instant from, Instant to, Duration period) {
        StringBuilder out = new StringBuilder(String.format("%-26s %-22s %s%n", "nominal fire time", "ran on", ""));
        for (Instant nominalFireTime = from; !nominalFireTime.isAfter(to); nominalFireTime = nominalFireTime.plus(period)) {
            List<String> nodes = runs.getOrDefault(nominalFireTime, List.of());
            String verdict = nodes.isEmpty() ? "MISSED" : nodes.size() > 1 ? "DUPLICATE" : "";
            out.append(String.format("%-26s %-22s %s%n", nominalFireTime, nodes.isEmpty() ? "-" : String.join(",", nodes), verdict));
        }
        return out.toString();
    }
}
