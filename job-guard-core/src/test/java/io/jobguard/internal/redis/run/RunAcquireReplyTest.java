package io.jobguard.internal.redis.run;

import io.jobguard.store.AcquireResult.Status;
import io.jobguard.store.LeaseRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RunAcquireReplyTest {

    /**
     * run-acquire.lua refuses a regular firing at or before the fire time a catch-up declared missed with a holder it
     * names itself and PTTL -2 (no key): nothing holds that fire time, so the holder must not read as an entry without
     * a TTL, which FiringWarnings reports as blocking the job until someone deletes it (seen in the fault suite's
     * SIGSTOP row with the spread on, docs/reliability.md).
     */
    @Test
    void aFireTimeDeclaredMissedIsHeldByNoEntry() {
        RunAcquireReply reply = RunAcquireReply.decode(List.of("ALREADY_RAN",
                "jg1|missed|1796666724000|0|0|declared-missed", -2L, "1796666600000"));

        assertThat(reply).isInstanceOf(RunAcquireReply.Held.class);
        LeaseRecord holder = ((RunAcquireReply.Held) reply).holder();
        assertThat(reply.status()).isEqualTo(Status.ALREADY_RAN);
        assertThat(holder.foreign()).isFalse();
        assertThat(holder.nodeId()).isEqualTo("declared-missed");
        assertThat(holder.expiresIn()).isEqualTo(Duration.ZERO);
    }

    @Test
    void aMarkerWithoutTtlStillReadsAsNoTtlAndOneWithATtlAsItsTtl() {
        String marker = "jg1|tok|1796666724000|1796666724010|42|node-A";

        assertThat(((RunAcquireReply.Held) RunAcquireReply.decode(List.of("ALREADY_RAN", marker, -1L, "1")))
                .holder().expiresIn()).isNull();
        assertThat(((RunAcquireReply.Held) RunAcquireReply.decode(List.of("ALREADY_RAN", marker, 1500L, "1")))
                .holder().expiresIn()).isEqualTo(Duration.ofMillis(1500));
    }
}
