package io.jobguard.spring.it;

import io.jobguard.BatchLocked;
import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Applications that misuse job-guard as issue 20 rows 1 to 4 list, one per {@code test.case}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class MisuseApps {

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "final-method")
    FinalMethod finalMethod() {
        return new FinalMethod();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "static-method")
    StaticMethod staticMethod() {
        return new StaticMethod();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "private-method")
    PrivateMethod privateMethod() {
        return new PrivateMethod();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "final-class")
    FinalClass finalClass() {
        return new FinalClass();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "class-level")
    ClassLevel classLevel() {
        return new ClassLevel();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "initial-delay")
    InitialDelayOnly initialDelayOnly() {
        return new InitialDelayOnly();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "batch")
    Skus skus() {
        return new Skus();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "brace-name")
    BraceName braceName() {
        return new BraceName();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "huge-lease")
    HugeLease hugeLease() {
        return new HugeLease();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "batch-separator")
    BatchSeparator batchSeparator() {
        return new BatchSeparator();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "batch-microsecond")
    BatchMicrosecond batchMicrosecond() {
        return new BatchMicrosecond();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "valid")
    Valid valid() {
        return new Valid();
    }

    static class FinalMethod {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton
        public final void run() {
        }
    }

    static class StaticMethod {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton
        public static void run() {
        }
    }

    static class PrivateMethod {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton
        private void run() {
        }
    }

    static final class FinalClass {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton
        public void run() {
        }
    }

    @ClusterSingleton
    static class ClassLevel {
        @Scheduled(fixedRate = 3_600_000)
        public void run() {
        }
    }

    static class InitialDelayOnly {
        @Scheduled(initialDelay = 3_600_000)
        @ClusterSingleton
        public void run() {
        }
    }

    static class BraceName {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton(name = "reports{eu}")
        public void run() {
        }
    }

    static class HugeLease {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton(lease = "106751991167300d")
        public void run() {
        }
    }

    static class BatchSeparator {
        @BatchLocked(namespace = "sku:eu", keys = "#skus")
        public void reserve(List<String> skus) {
        }
    }

    static class BatchMicrosecond {
        @BatchLocked(namespace = "sku", keys = "#skus", lease = "PT0.000001S")
        public void reserve(List<String> skus) {
        }
    }

    static class Valid {
        @Scheduled(fixedRate = 3_600_000)
        @ClusterSingleton
        public void run() {
        }
    }

    /**
     * Batch-locked methods taking their keys from a Stream, a bare Iterable, an Iterator, an array or a
     * Map. The holding ones signal {@code holding} and return once {@code release} is counted down.
     */
    static class Skus {

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s")
        public void holdStream(Stream<String> skus, CountDownLatch holding, CountDownLatch release)
                throws InterruptedException {
            hold(holding, release);
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s")
        public void holdIterable(Iterable<String> skus, CountDownLatch holding, CountDownLatch release)
                throws InterruptedException {
            hold(holding, release);
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s")
        public void holdIterator(Iterator<String> skus, CountDownLatch holding, CountDownLatch release)
                throws InterruptedException {
            hold(holding, release);
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s", waitFor = "0s")
        public void once(List<String> skus) {
        }

        @BatchLocked(namespace = "sku", keys = "#skus", lease = "30s", waitFor = "0s")
        public void onceArray(String[] skus) {
        }

        @BatchLocked(namespace = "sku", keys = "#stock", lease = "30s")
        public void byMap(Map<String, Integer> stock) {
        }

        private static void hold(CountDownLatch holding, CountDownLatch release) throws InterruptedException {
            holding.countDown();
            if (!release.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the keys");
            }
        }
    }
}
