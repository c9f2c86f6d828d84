package io.jobguard.spring.it;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

/** What ran where: (nominal fire time, node, real start and end) of every guarded run, across nodes. */
final class FireLog {

    /** One run of a job body. */
    record Run(Instant nominalFireTime, String node, long startNanos, long endNanos, String thread) {
    }

    private final ConcurrentLinkedQueue<Run> runs = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> decisions = new ConcurrentLinkedQueue<>();

    /** Every node's decision on every firing, for failure messages. */
    void decided(Instant nominalFireTime, String node, String outcome) {
        decisions.add(nominalFireTime + " " + node + " " + outcome + " at " + Instant.now());
    }

    List<String> decisionsFor(Instant nominalFireTime) {
        String prefix = nominalFireTime.toString() + " ";
        return decisions.stream().filter(d -> d.startsWith(prefix)).toList();
    }

    List<String> decisions() {
        return List.copyOf(decisions);
    }

    void add(Run run) {
        runs.add(run);
    }

    List<Run> runs() {
        return List.copyOf(runs);
    }

    long distinctFireTimes() {
        return runs.stream().map(Run::nominalFireTime).distinct().count();
    }

    /** Nodes that ran each fire time, by fire time. */
    Map<Instant, List<String>> byFireTime() {
        return runs().stream().collect(Collectors.groupingBy(Run::nominalFireTime, TreeMap::new,
                Collectors.mapping(Run::node, Collectors.toList())));
    }

    void clear() {
        runs.clear();
        decisions.clear();
    }
}
