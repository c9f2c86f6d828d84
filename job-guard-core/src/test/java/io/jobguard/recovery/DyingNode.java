package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.redis.RedisLeaseStore;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;

/**
 * A node in its own JVM for {@link DiedRunIT}: takes the job's fire time, prints
 * {@code RUNNING <token>} and runs until it is killed (its lease kept alive meanwhile).
 * Arguments: port, job name, lease millis, fire time millis, delivery.
 */
public final class DyingNode {

    private DyingNode() {
    }

    public static void main(String[] args) throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])));
        factory.afterPropertiesSet();
        factory.start();
        JobGuard guard = JobGuard.create(RedisLeaseStore.create(factory, "jgtest"),
                JobGuardConfig.builder().node(NodeConfig.builder().nodeId("dying").build())
                        .skewTolerance(Duration.ofSeconds(2)).build());
        JobOptions job = JobOptions.builder(args[1], Duration.ofMillis(Long.parseLong(args[2]))).build();
        Instant fireTime = Instant.ofEpochMilli(Long.parseLong(args[3]));
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.SKIP)
                .delivery(Delivery.valueOf(args[4])).schedule(null).build();
        Admission admission = ((JobGuardEngine) guard).missedFireTimeRecovery().admit(job, recovery, fireTime, () -> { });
        if (!admission.granted()) {
            System.out.println("REFUSED " + admission.refusal());
            return;
        }
        System.out.println("RUNNING " + admission.permit().context().fencingToken());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
