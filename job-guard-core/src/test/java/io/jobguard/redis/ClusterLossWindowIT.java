package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.fleet.LeadShards;
import io.jobguard.store.AcquireResult;
import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.jobguard.redis.LossProbes.JOB;
import static io.jobguard.redis.LossProbes.awaitRedis;
import static io.jobguard.redis.LossProbes.take;
import static io.jobguard.redis.LossProbes.twoNodesOnTime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Judging fire times after one Redis Cluster master lost its data, on a real 3-master cluster: the lost master's own
 * leads hash ({@link LeadShards}) dates the loss, so the first fire time of a longer period after the master returned
 * runs, while a fire time a stopped node ran ahead before the loss stays refused. The master is restarted without
 * persistence (same node id and slots, no keys); the other masters keep theirs.
 */
@WithRedis
class ClusterLossWindowIT {

    private final RedisClusterProcess cluster;
    private final LettuceConnectionFactory connectionFactory;
    private final List<RedisLeaseStore> stores = new ArrayList<>();

    ClusterLossWindowIT(RedisClusterProcess cluster) {
        this.cluster = cluster;
        this.connectionFactory = cluster.connectionFactory(Duration.ofSeconds(2));
    }

    @BeforeEach
    void emptyCluster() {
        cluster.ensureRunning();
        cluster.flushAll();
    }

    @AfterEach
    void close() {
        stores.forEach(RedisLeaseStore::close);
        connectionFactory.destroy();
    }

    private RedisLeaseStore store() {
        RedisLeaseStore store = RedisLeaseStore.create(connectionFactory, "jgtest");
        stores.add(store);
        return store;
    }

    /** The master that owns the job's slot. */
    private RedisServerProcess jobMaster() {
        return cluster.masterOf(new KeySchema("jgtest").of(JOB, JobKey.STATE));
    }

    /** The leads hash that lives on the given master: the one whose hash tag's slot that master owns. */
    private static String leadsHashOn(RedisServerProcess master) {
        for (int slot = 0; slot < RedisClusterProcess.SLOTS; slot++) {
            String key = new KeySchema("jgtest").fleetLeads(LeadShards.tagOf(slot));
            try {
                master.call("EXISTS", key);
                return key; // the first slot the master owns: the shard LeadShards names after it
            } catch (RuntimeException moved) {
                slot = skipTo(master, slot);
            }
        }
        throw new IllegalStateException("the master owns no slot");
    }

    /** The slots of a 3-master cluster are split in three ranges: try the next range's first slot. */
    private static int skipTo(RedisServerProcess master, int slot) {
        return slot < 5461 ? 5460 : slot < 10923 ? 10922 : slot;
    }

    /** Waits until the nodes' publications re-created the job master's leads hash after its loss; returns when. */
    private static Instant recreated(RedisServerProcess master, String hash) {
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> String.valueOf(master.call("HGET", hash, "~lineage")).endsWith("|lost"));
        return Instant.ofEpochMilli(Long.parseLong(String.valueOf(master.call("HGET", hash, "~lineage")).split("\\|")[0]));
    }

    /** Restarts the job's master without its data and waits until the cluster serves the job's slot again. */
    private RedisServerProcess restartJobMasterEmpty(RedisLeaseStore a) {
        RedisServerProcess master = jobMaster();
        master.restart();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> "ok".equals(String.valueOf(master.call("CLUSTER", "INFO")).lines()
                        .filter(l -> l.startsWith("cluster_state:")).findFirst().orElse("").substring(14).trim()));
        return master;
    }

    @Test
    void theFirstFireTimeOfALongerPeriodAfterTheJobsMasterRestartedEmptyRuns() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        RedisServerProcess master = restartJobMasterEmpty(a);
        String hash = leadsHashOn(master);
        Instant back = recreated(master, hash);
        awaitRedis(a, back.plusMillis(1000));
        assertThat(take(a, "a", a.serverTime())).as("the minute job's first fire time after its master restarted empty "
                + "(counted from the epoch's creation it would be refused for skew-tolerance)")
                .isEqualTo(AcquireResult.Status.ACQUIRED);
    }

    @Test
    void aFireTimeANodeRanAheadBeforeTheMastersLossStaysRefused() {
        RedisLeaseStore a = store();
        RedisLeaseStore b = store();
        twoNodesOnTime(a, b);
        // C joins 4 s ahead: its lead is above every lead the fleet knows, so it waits until A has read it
        RedisLeaseStore c = store();
        Instant ahead = c.serverTime().plusSeconds(4);
        assertThat(take(c, "c", ahead)).isEqualTo(AcquireResult.Status.ACQUIRED);
        c.close(); // C stops: it never re-publishes after the loss
        RedisServerProcess master = restartJobMasterEmpty(a);
        Instant back = recreated(master, leadsHashOn(master));
        awaitRedis(a, ahead);
        assertThat(take(a, "a", ahead)).as("C ran it before the loss; its lead is known in memory")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
        awaitRedis(a, back.plusMillis(4600)); // C's lead was at most 4 s
        assertThat(take(a, "a", a.serverTime())).as("beyond C's lead + margin").isEqualTo(AcquireResult.Status.ACQUIRED);
    }
}
