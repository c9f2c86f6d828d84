package io.jobguard.spring.it;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * DESIGN §2, "warn if zones differ": two Boot nodes guard the same cron job, one evaluating it in UTC and
 * one in Asia/Tokyo. Each node names the other's schedule in a WARN; when the odd node leaves, the other
 * says that the live nodes agree again.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class ScheduleAgreementIT {

    private static final String UTC = "cron \"0 0 2 * * *\" (UTC)";
    private static final String TOKYO = "cron \"0 0 2 * * *\" (Asia/Tokyo)";

    @Test
    void nodesWhoseCronZonesDifferAreWarnedAbout(RedisServerProcess redis, CapturedOutput output) {
        List<String> common = List.of("test.job=zoned", "jobguard.schedule-check-interval=500ms",
                "jobguard.key-prefix=zones");
        Nodes utc = Nodes.start(redis, GuardApp.class, List.of(with(common, "jobguard.node-id=utc-node",
                "test.zone=UTC")));
        try {
            Nodes tokyo = Nodes.start(redis, GuardApp.class, List.of(with(common, "jobguard.node-id=tokyo-node",
                    "test.zone=Asia/Tokyo")));
            try {
                await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(output.getOut())
                        .contains("job 'nightly' is scheduled differently across nodes: node tokyo-node fires it on "
                                + TOKYO + ", node utc-node on " + UTC)
                        .contains("job 'nightly' is scheduled differently across nodes: node utc-node fires it on "
                                + UTC + ", node tokyo-node on " + TOKYO));
            } finally {
                tokyo.close();
            }
            // the Tokyo node stops publishing; three intervals later it no longer counts
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(output.getOut())
                    .contains("job 'nightly': every live node now fires it on " + UTC));
        } finally {
            utc.close();
        }
    }

    private static List<String> with(List<String> common, String... more) {
        return java.util.stream.Stream.concat(common.stream(), java.util.Arrays.stream(more)).toList();
    }
}
