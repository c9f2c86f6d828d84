package io.jobguard.examples.demo;

import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import io.jobguard.RunContext;
import io.jobguard.examples.support.RunLedger;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Instant;

/** The guarded jobs of the demo; each records (nominal fire time, node) in Redis for the runner. */
@Component
class DemoJobs {

    private final StringRedisTemplate redis;
    private final String node;
    private int overrunningRuns;

    DemoJobs(StringRedisTemplate redis, @Value("${demo.node}") String node) {
        this.redis = redis;
        this.node = node;
    }

    /** Every second, RETURN: a busy or already-run firing is skipped. */
    @Scheduled(cron = "* * * * * *")
    @ClusterSingleton(name = "every-second", type = GuardType.RETURN, lease = "10s")
    public void everySecond() {
        record(DemoKeys.EVERY_SECOND);
    }

    /** Every two seconds, WAIT; every third run overruns its period, so the next firing runs late. */
    @Scheduled(cron = "*/2 * * * * *")
    @ClusterSingleton(name = "overrunning", type = GuardType.WAIT, lease = "10s", waitFor = "5s")
    public void overrunning() throws InterruptedException {
        record(DemoKeys.OVERRUNNING);
        if (++overrunningRuns % 3 == 0) {
            Thread.sleep(2500);
        }
    }

    private void record(String list) {
        Instant nominalFireTime = RunContext.current().orElseThrow().nominalFireTime();
        redis.opsForList().rightPush(list, RunLedger.entry(nominalFireTime, node));
    }
}
