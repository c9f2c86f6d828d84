package io.jobguard.redis;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.store.HistoryFormat;
import io.jobguard.store.RunHistory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The JVM of {@link HistoryExportSmallHeapIT}, started with a small heap: exports one job's whole run history as CSV to
 * a file through {@link JobGuard#exportHistory(String, RunHistory.Query, HistoryFormat)}, the stream the actuator
 * serves, then prints {@code NODE EXPORTED <bytes> <max heap used>} and exits 0.
 *
 * <p>Arguments: host, port, key prefix, namespace, job, output file.
 */
public final class HistoryExportChild {

    private HistoryExportChild() {
    }

    /**
     * Runs the export.
     *
     * @param args host, port, prefix, namespace, job, file
     * @throws Exception on any failure (the test sees the output and the exit code)
     */
    public static void main(String[] args) throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(args[0], Integer.parseInt(args[1])),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(30)).build());
        factory.afterPropertiesSet();
        factory.start();
        long bytes = 0;
        long maxUsed = 0;
        try (RedisLeaseStore store = RedisLeaseStore.create(factory, args[2]);
             JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace(args[3]).build());
             InputStream export = guard.exportHistory(args[4], RunHistory.Query.ALL, HistoryFormat.CSV);
             OutputStream out = Files.newOutputStream(Path.of(args[5]))) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = export.read(buffer)) > 0) {
                out.write(buffer, 0, n);
                bytes += n;
                Runtime runtime = Runtime.getRuntime();
                maxUsed = Math.max(maxUsed, runtime.totalMemory() - runtime.freeMemory());
            }
        } finally {
            factory.destroy();
        }
        System.out.println("NODE EXPORTED " + bytes + " " + maxUsed);
        System.exit(0);
    }
}
