package com.example.billing;

import io.jobguard.RunOutcome;
import io.jobguard.store.RunHistory.FireEntry;
import io.jobguard.test.spring.AutoConfigureJobGuardTest;
import io.jobguard.test.spring.GuardedJobs;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The Quickstart's job under job-guard's test kit: no Redis, nothing fires by itself, each test fires the job for a
 * fire time of its own and makes the cluster around it behave as it needs.
 */
// README: invoice job test
@SpringBootTest(properties = "jobguard.redis.eviction-check=off")   // no Redis to check in this test
@AutoConfigureJobGuardTest                                          // the kit's store and scheduler, not Redis
class InvoiceJobTest {

    @Autowired
    GuardedJobs jobs;

    @Test
    void runsForItsFireTime() {
        Instant t = Instant.parse("2030-01-01T02:00:00Z");      // a fire time of "0 */5 * * * *"

        assertThat(jobs.fire("invoices", t)).isEqualTo(RunOutcome.RAN);
        assertThat(jobs.tester().history("invoices"))
                .extracting(FireEntry::nominalFireTime, FireEntry::outcome)
                .contains(tuple(t, "RAN"));     // one context for the class: other tests add theirs
    }

    @Test
    void isSkippedWhenAnotherNodeRanTheFireTime() {
        Instant t = Instant.parse("2030-01-01T02:05:00Z");
        jobs.tester().anotherNode("billing-2").ran("invoices", t);

        assertThat(jobs.fire("invoices", t)).isEqualTo(RunOutcome.ALREADY_RAN);
    }

    @Test
    void isSkippedAndDoesNotRunWhileRedisIsDown() {
        Instant t = Instant.parse("2030-01-01T02:10:00Z");
        jobs.tester().store().down();
        try {
            assertThat(jobs.fire("invoices", t)).isEqualTo(RunOutcome.STORE_ERROR);
        } finally {
            jobs.tester().store().up();
        }
        assertThat(jobs.fire("invoices", t)).as("nothing was taken while down").isEqualTo(RunOutcome.RAN);
    }
}
// end
