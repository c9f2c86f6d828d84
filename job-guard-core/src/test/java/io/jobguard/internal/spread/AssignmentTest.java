package io.jobguard.internal.spread;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The assignment of jobs to nodes: balanced within 1.5x the average, stable as nodes join and leave. */
class AssignmentTest {

    private static List<String> names(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }

    private static Map<String, Integer> loads(Map<String, String> assignment) {
        Map<String, Integer> loads = new HashMap<>();
        assignment.values().forEach(n -> loads.merge(n, 1, Integer::sum));
        return loads;
    }

    @Test
    void twoHundredJobsOverTenNodesLeaveTheBusiestAtMostOneAndAHalfTimesTheAverage() {
        for (String hosts : List.of("app-", "10.0.3.", "worker-7f9c-")) {
            List<String> nodes = names(hosts, 10).stream().map(n -> n + ":4711").toList();
            Map<String, String> assignment = Assignment.of(names("Reports.job", 200), nodes);
            assertThat(assignment).hasSize(200);
            assertThat(loads(assignment).values()).allSatisfy(load -> assertThat(load).isBetween(1, 30));
            System.out.printf("AssignmentTest: 200 jobs over 10 nodes %s..: loads %s%n", hosts,
                    new java.util.TreeMap<>(loads(assignment)).values());
        }
    }

    @Test
    void everyNodeComputesTheSameAssignmentWhateverTheOrderItSeesTheFleetIn() {
        List<String> nodes = new ArrayList<>(names("n", 7));
        Map<String, String> one = Assignment.of(names("job", 50), nodes);
        Collections.reverse(nodes);
        List<String> jobs = new ArrayList<>(names("job", 50));
        Collections.reverse(jobs);
        assertThat(Assignment.of(jobs, nodes)).isEqualTo(one);
    }

    @Test
    void aNodeThatJoinsTakesItsOwnShareAndMovesAlmostNothingElse() {
        List<String> jobs = names("Reports.job", 200);
        List<String> ten = names("node-", 10);
        Map<String, String> before = Assignment.of(jobs, ten);
        List<String> eleven = new ArrayList<>(ten);
        eleven.add("node-new");
        Map<String, String> after = Assignment.of(jobs, eleven);
        long toNewNode = jobs.stream().filter(j -> after.get(j).equals("node-new")).count();
        long movedBetweenOldNodes = moved(jobs, before, after) - toNewNode;
        assertThat(toNewNode).isBetween(5L, 30L);
        System.out.printf("AssignmentTest: an 11th node took %d jobs; %d moved between the other nodes%n", toNewNode,
                movedBetweenOldNodes);
        // a capacity bound can push a job to its next choice; rendezvous alone moves none
        assertThat(movedBetweenOldNodes).isLessThanOrEqualTo(jobs.size() / 20);
    }

    @Test
    void aNodeThatLeavesHandsOnItsOwnJobsAndMovesAlmostNothingElse() {
        List<String> jobs = names("Reports.job", 200);
        List<String> ten = names("node-", 10);
        Map<String, String> before = Assignment.of(jobs, ten);
        Map<String, String> after = Assignment.of(jobs, ten.subList(1, 10));
        long itsOwn = jobs.stream().filter(j -> before.get(j).equals("node-0")).count();
        assertThat(moved(jobs, before, after) - itsOwn).isLessThanOrEqualTo(jobs.size() / 20);
        System.out.printf("AssignmentTest: a node leaving handed on its %d jobs; %d others moved%n", itsOwn,
                moved(jobs, before, after) - itsOwn);
    }

    private static long moved(Collection<String> jobs, Map<String, String> before, Map<String, String> after) {
        return jobs.stream().filter(j -> !before.get(j).equals(after.get(j))).count();
    }

    @Test
    void digestsAreTheSameForTheSameSetAndDifferForAnother() {
        assertThat(Assignment.digest(List.of("a", "b"))).isEqualTo(Assignment.digest(List.of("b", "a")))
                .isNotEqualTo(Assignment.digest(List.of("a", "c")));
    }
}
