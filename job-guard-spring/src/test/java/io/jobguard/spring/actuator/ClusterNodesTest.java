package io.jobguard.spring.actuator;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The nodes the report derives from the fire times and leases it reads: who, last seen, clock lead, runs per job. */
class ClusterNodesTest {

    private static final Instant NOW = Instant.parse("2026-11-27T00:00:10Z");
    private static final Instant T1 = Instant.parse("2026-11-27T00:00:01Z");
    private static final Instant T2 = Instant.parse("2026-11-27T00:00:02Z");

    @Test
    void thisNodeIsListedFirstEvenWithoutRecords() {
        ClusterNodes nodes = new ClusterNodes("me", NOW);
        assertThat(nodes.nodes()).containsExactly(new JobGuardEndpoint.ClusterNode("me", true, NOW, null, Map.of()));
    }

    @Test
    void otherNodesComeFromFireTimesAndLeasesWithTheirLeadOverRunsOnly() {
        ClusterNodes nodes = new ClusterNodes("me", NOW);
        nodes.fires("billing", List.of(
                // ran 3 ms after its fire time by Redis time
                new JobGuardEndpoint.Fire(T2, "b", "RAN", "PT0.1S", T2.plusMillis(3), 7),
                // took its fire time 40 ms early: its clock runs ahead of Redis
                new JobGuardEndpoint.Fire(T1, "b", "RAN", "PT0.1S", T1.minusMillis(40), 6),
                // decided without a run: seen, but no run and no lead
                new JobGuardEndpoint.Fire(T1.minusSeconds(1), "c", "PAUSED", null, T1.minusMillis(500), -1)));
        nodes.fires("export", List.of(new JobGuardEndpoint.Fire(T1, "me", "RAN", "PT0S", T1.plusMillis(1), 5)));
        nodes.lease(new JobGuardEndpoint.RunLease("export", "d", T2, T2.plusMillis(2), "PT5S", 9, false));
        nodes.lease(new JobGuardEndpoint.RunLease("export", "foreign-value", T2, T2, "PT5S", 0, true));

        assertThat(nodes.nodes()).containsExactly(
                new JobGuardEndpoint.ClusterNode("me", true, NOW, "PT-0.001S", Map.of("export", 1)),
                new JobGuardEndpoint.ClusterNode("b", false, T2.plusMillis(3), "PT0.04S", Map.of("billing", 2)),
                new JobGuardEndpoint.ClusterNode("c", false, T1.minusMillis(500), null, Map.of()),
                new JobGuardEndpoint.ClusterNode("d", false, T2.plusMillis(2), null, Map.of()));
    }
}
