package io.jobguard.internal.spread;

import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
import io.jobguard.TakeOverExecutor;
import io.jobguard.store.FleetMembers;
import io.jobguard.store.FleetView;
import io.jobguard.store.JobId;
import io.jobguard.store.ScheduleClaim;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's view of the fleet follows the newest read: a read that reaches the node after a newer one (the store's
 * timer and a firing publishing at once) does not bring back the fleet as it was.
 */
class FleetSpreadViewTest {

    /** The fleet part of a store: hands the viewer to the test, which plays the store's reads. */
    private static final class Reads implements FleetView {
        final AtomicReference<Consumer<FleetMembers>> viewer = new AtomicReference<>();

        @Override
        public boolean joinFleet(String nodeId, Supplier<String> publication, Consumer<FleetMembers> viewer) {
            this.viewer.set(viewer);
            return true;
        }

        @Override
        public Optional<Instant> reachedByLaterNodes() {
            return Optional.empty();
        }

        @Override
        public List<ScheduleClaim> publishSchedule(JobId job, String nodeId, String schedule, Duration ttl) {
            return List.of();
        }

        @Override
        public void admissionClosed() {
        }
    }

    @Test
    void aReadOlderThanTheViewIsNotTaken() {
        List<JobOptions> jobs = IntStream.range(0, 12).mapToObj(i -> JobOptions.builder("job-" + i, Duration.ofSeconds(5))
                .recovery(RecoveryOptions.builder().schedule(t -> t.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1))
                        .build()).build()).toList();
        Reads reads = new Reads();
        try (FleetSpread spread = new FleetSpread("a", reads, Clock.systemUTC(), 10_000, (job, t, body) -> { })) {
            assertThat(spread.declare(jobs, TakeOverExecutor.OWN_THREAD)).hasSize(12);
            String published = "s1;" + Assignment.digest(jobs.stream().map(JobOptions::name).toList()) + ";f;0;0";
            FleetMembers older = new FleetMembers(1_000, Map.of("a", published), Map.of());
            FleetMembers newer = new FleetMembers(2_000, Map.of("a", published, "b", published), Map.of());

            reads.viewer.get().accept(newer);
            Set<String> nodesOfTwo = Set.copyOf(jobs.stream().map(j -> spread.assignedNode(j.name()).orElseThrow()).toList());
            assertThat(nodesOfTwo).containsExactlyInAnyOrder("a", "b");

            reads.viewer.get().accept(older);
            assertThat(jobs.stream().map(j -> spread.assignedNode(j.name()).orElseThrow()).toList())
                    .as("the fleet of the newer read").contains("b");
        }
    }

    @Test
    void aPublicationReadsBackAsWrittenAndAnotherFormatIsNoMember() {
        MemberPublication p = new MemberPublication("jobs", "fleet", 1_000, 5_000);
        assertThat(MemberPublication.parse(p.text())).isEqualTo(p);
        assertThat(p.covers("fleet", 1_000)).isTrue();
        assertThat(p.covers("fleet", 5_001)).isFalse();
        assertThat(p.covers("other fleet", 2_000)).as("covered only in the fleet it saw").isFalse();
        assertThat(MemberPublication.parse("s2;jobs;fleet;1000;5000")).isNull();
        assertThat(MemberPublication.parse("s1;jobs;fleet;x;5000")).isNull();
        assertThat(MemberPublication.parse("")).isNull();
    }
}
