package io.jobguard.shedlock;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.RedisTopology;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

import java.time.Duration;

/**
 * The ShedLock provider contract ({@link JobGuardLockProviderContract}) on a standalone Redis and on a
 * 3-master Redis Cluster, one nested class each.
 *
 * <p>The servers belong to this class (see {@code RedisExtension}): each kind is started once, on the
 * first nested class that asks for it (emptied before every test), and stopped when this class finishes.
 * Each test opens its own connection factory and destroys it.
 */
@WithRedis
class JobGuardLockProviderTopologiesIT {

    @Nested
    @DisplayName("standalone lettuce")
    class StandaloneLettuce extends JobGuardLockProviderContract {

        StandaloneLettuce(RedisServerProcess redis) {
            super(RedisTopology.standaloneLettuce(redis, Duration.ofSeconds(2)));
        }
    }

    /** Each lock is one key, in its own slot. */
    @Nested
    @DisplayName("cluster lettuce")
    class ClusterLettuce extends JobGuardLockProviderContract {

        ClusterLettuce(RedisClusterProcess cluster) {
            super(RedisTopology.clusterLettuce(cluster));
        }
    }
}
