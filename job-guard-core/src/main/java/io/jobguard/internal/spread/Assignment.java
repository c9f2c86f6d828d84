package io.jobguard.internal.spread;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which node asks for each job: rendezvous hashing with bounded loads. Every node ranks the nodes for a job by a hash
 * of (node, job), the same on every node; jobs are placed in an order fixed by their own hash, each on the best-ranked
 * node that holds fewer than {@code floor(1.5 x jobs / nodes)} jobs (at least the average, rounded up). So the busiest
 * node holds at most 1.5 times the average, and a node that joins or leaves moves its own share of jobs, plus the
 * rare job a capacity bound pushes to its next choice. A pure function of the job names and node ids.
 */
final class Assignment {

    private Assignment() {
    }

    /**
     * Assigns each job to one node.
     *
     * @param jobs  the job names (any order; duplicates are one job)
     * @param nodes the node ids (any order, at least one)
     * @return per job, its node
     */
    static Map<String, String> of(Collection<String> jobs, Collection<String> nodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no node to assign jobs to");
        }
        List<String> order = new ArrayList<>(new TreeSet<>(jobs));
        order.sort(Comparator.comparingLong(Assignment::hash).thenComparing(Comparator.naturalOrder()));
        List<String> members = new ArrayList<>(new TreeSet<>(nodes));
        int capacity = Math.max((order.size() + members.size() - 1) / members.size(),
                (int) Math.floor(1.5 * order.size() / members.size()));
        Map<String, Integer> load = new HashMap<>();
        Map<String, String> assigned = new HashMap<>();
        for (String job : order) {
            List<String> ranked = new ArrayList<>(members);
            ranked.sort(Comparator.comparingLong((String node) -> score(node, job)).reversed()
                    .thenComparing(Comparator.naturalOrder()));
            for (String node : ranked) {
                if (load.getOrDefault(node, 0) < capacity) {
                    load.merge(node, 1, Integer::sum);
                    assigned.put(job, node);
                    break;
                }
            }
        }
        return assigned;
    }

    /** A node's rank for a job: higher ranks first. */
    static long score(String node, String job) {
        return hash(node + '\u0000' + job);
    }

    /**
     * A 64-bit hash of a text, the same in every JVM: FNV-1a over its UTF-8 bytes, then the SplitMix64 finalizer to
     * spread nearby texts apart.
     *
     * @param text the text
     * @return its hash
     */
    static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 30;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 27;
        h *= 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    /**
     * A digest of a set of texts, the same for the same set in every JVM and order.
     *
     * @param texts the texts
     * @return 16 hex digits
     */
    static String digest(Collection<String> texts) {
        long h = 0x9e3779b97f4a7c15L;
        for (String text : new TreeSet<>(texts)) {
            h = hash(Long.toHexString(h) + '\u0001' + text);
        }
        return String.format("%016x", h);
    }
}
