package io.jobguard.spring.actuator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nodes of the cluster as the records the endpoint already reads show them: every node named by a
 * recent fire time or a live run lease of this node's jobs, with the latest Redis time it was seen
 * taking or deciding one, its clock lead over its runs and how many of them it ran per job. This node
 * is always listed, first. Nothing extra is read from the store; a node that took no fire time of these
 * jobs within the kept history is not listed.
 */
final class ClusterNodes {

    private static final class Seen {
        Instant lastSeen;
        Duration lead;
        final Map<String, Integer> ran = new TreeMap<>();

        void at(Instant at) {
            if (at != null && (lastSeen == null || at.isAfter(lastSeen))) {
                lastSeen = at;
            }
        }
    }

    private final String self;
    private final Instant now;
    private final Map<String, Seen> seen = new TreeMap<>();

    ClusterNodes(String self, Instant now) {
        this.self = self;
        this.now = now;
    }

    void lease(JobGuardEndpoint.RunLease lease) {
        if (!lease.foreign() && lease.holder() != null) {
            seen(lease.holder()).at(lease.acquiredAt());
        }
    }

    void fires(String job, List<JobGuardEndpoint.Fire> fires) {
        for (JobGuardEndpoint.Fire fire : fires) {
            if (fire.node() == null || fire.node().isEmpty()) {
                continue;
            }
            Seen node = seen(fire.node());
            node.at(fire.at());
            if (fire.fencingToken() >= 0) {
                // a run: it took the fire time's lease at Redis time `at`
                node.ran.merge(job, 1, Integer::sum);
                if (fire.at() != null && fire.nominalFireTime() != null) {
                    Duration lead = Duration.between(fire.at(), fire.nominalFireTime());
                    if (node.lead == null || lead.compareTo(node.lead) > 0) {
                        node.lead = lead;
                    }
                }
            }
        }
    }

    List<JobGuardEndpoint.ClusterNode> nodes() {
        List<JobGuardEndpoint.ClusterNode> out = new ArrayList<>();
        Seen mine = seen.remove(self);
        out.add(node(self, true, now, mine == null ? new Seen() : mine));
        seen.forEach((id, node) -> out.add(node(id, false, node.lastSeen, node)));
        return out;
    }

    private static JobGuardEndpoint.ClusterNode node(String id, boolean self, Instant lastSeen, Seen node) {
        return new JobGuardEndpoint.ClusterNode(id, self, lastSeen, node.lead == null ? null : node.lead.toString(),
                Map.copyOf(node.ran));
    }

    private Seen seen(String node) {
        return seen.computeIfAbsent(node, n -> new Seen());
    }
}
