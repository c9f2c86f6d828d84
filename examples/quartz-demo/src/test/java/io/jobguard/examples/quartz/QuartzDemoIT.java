package io.jobguard.examples.quartz;

import io.jobguard.examples.support.RunLedger;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Quartz demo in short form: three RAMJobStore schedulers, one slow, each fire time once. */
@WithRedis
class QuartzDemoIT {

    @Test
    void threeSchedulersOneSlowRunEachFireTimeOnce(RedisServerProcess redis) throws Exception {
        QuartzDemo.RUNS.clear();
        Instant from;
        Instant to;
        try (QuartzDemo demo = new QuartzDemo(redis.port())) {
            from = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS);
            to = from.plusSeconds(5);
            // the slow node fires T about 2 s late; once T = to + 3 s has run, it has tried `to`
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> RunLedger.of(List.copyOf(QuartzDemo.RUNS)).runs().containsKey(to.plusSeconds(3)));
            demo.stop();
        }
        RunLedger ledger = RunLedger.of(List.copyOf(QuartzDemo.RUNS));
        String table = ledger.table(from, to, Duration.ofSeconds(1));
        assertThat(ledger.duplicates()).as(table).isEmpty();
        assertThat(ledger.misses(from, to, Duration.ofSeconds(1))).as(table).isEmpty();
    }
}
