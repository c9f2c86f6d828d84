package io.jobguard.internal.redis;

import io.jobguard.store.LeaseRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class LeaseValuesTest {

    @Test
    void parsesOurValuesIncludingANodeIdWithTheSeparator() {
        LeaseRecord r = LeaseValues.parse("jg1|tok|1763805600000|1763805600123|42|host|with|bars:77",
                Duration.ofSeconds(3));
        assertThat(r.foreign()).isFalse();
        assertThat(r.ownerToken()).isEqualTo("tok");
        assertThat(r.nominalFireTime()).isEqualTo(Instant.ofEpochMilli(1763805600000L));
        assertThat(r.acquiredAt()).isEqualTo(Instant.ofEpochMilli(1763805600123L));
        assertThat(r.fencingToken()).isEqualTo(42);
        assertThat(r.nodeId()).isEqualTo("host|with|bars:77");
        assertThat(r.expiresIn()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void anythingElseIsForeign() {
        assertThat(LeaseValues.parse("1763805600000", null).foreign()).isTrue();
        assertThat(LeaseValues.parse("jg1|tok|notanumber|1|2|n", null).foreign()).isTrue();
        assertThat(LeaseValues.parse("jg2|tok|1|1|2|n", null).describeHolder()).isEqualTo("foreign value 'jg2|tok|1|1|2|n'");
        assertThat(LeaseValues.parse(null, null)).isNull();
    }
}
