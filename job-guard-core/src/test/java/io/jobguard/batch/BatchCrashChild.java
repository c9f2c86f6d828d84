package io.jobguard.batch;

import io.jobguard.NodeConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The client that {@link BatchCrashBetweenBucketsIT} SIGKILLs in the middle of a spread-mode batch: it
 * connects, prints {@code NODE READY}, and on the line {@code GO} from stdin tries to lock
 * {@code keyCount} keys, which hangs on the master the test has paused. It never gets further.
 *
 * <p>Arguments: cluster nodes (comma-separated {@code host:port}), key prefix, namespace, lease in ms,
 * key count.
 */
public final class BatchCrashChild {

    private BatchCrashChild() {
    }

    /**
     * Runs the client.
     *
     * @param args nodes, prefix, namespace, lease ms, key count
     * @throws Exception on any failure (the test sees the output)
     */
    public static void main(String[] args) throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisClusterConfiguration(List.of(args[0].split(","))),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofMinutes(1)).build());
        factory.afterPropertiesSet();
        factory.start();
        RedisBatchLocks locks = RedisBatchLocks.create(factory, args[1],
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("crashing-child").build()).spread(true)
                        .chunkSize(100).build());
        String namespace = args[2];
        Duration lease = Duration.ofMillis(Long.parseLong(args[3]));
        List<String> keys = BatchLocksContract.keys(0, Integer.parseInt(args[4]));
        // One batch outside the test's keys: scripts loaded, connections to every master open.
        locks.tryAcquire(namespace + "-warm", BatchLocksContract.keys(0, 64), lease).orElseThrow().close();
        System.out.println("NODE READY");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if ("GO".equals(in.readLine())) {
            System.out.println("NODE ACQUIRING");
            System.out.println("NODE RESULT " + locks.tryAcquire(namespace, keys, lease).result());
        }
    }
}
