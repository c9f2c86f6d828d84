package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Guarded methods whose work completes after they return. {@link MonoApp}: a scheduled
 * {@code Mono} (Spring subscribes at every firing). {@link FutureApp}: a {@code CompletableFuture}
 * method called directly (Spring itself refuses to schedule a {@code CompletableFuture} method when
 * Reactor is on the classpath, as it is here, so this app does not enable scheduling).
 * {@link SuspendApp}: a scheduled Kotlin suspend function ({@code SuspendJobs.kt}).
 */
final class AsyncApps {

    static volatile CountDownLatch started = new CountDownLatch(1);
    static volatile CountDownLatch release = new CountDownLatch(1);
    static final AtomicInteger completed = new AtomicInteger();

    private AsyncApps() {
    }

    static void reset() {
        started = new CountDownLatch(1);
        release = new CountDownLatch(1);
        completed.set(0);
    }

    /** Waits for the test on another thread, as reactive work does. */
    private static void work() {
        started.countDown();
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        completed.incrementAndGet();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class MonoApp {
        @Bean
        MonoJob monoJob() {
            return new MonoJob();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class SuspendApp {
        @Bean
        SuspendJob suspendJob() {
            return new SuspendJob();
        }

        @Bean
        FailingSuspendJob failingSuspendJob() {
            return new FailingSuspendJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class FutureApp {
        @Bean
        FutureJob futureJob() {
            return new FutureJob();
        }
    }

    static class MonoJob {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "mono", lease = "2s")
        public Mono<Void> run() {
            return Mono.fromRunnable(AsyncApps::work).subscribeOn(Schedulers.boundedElastic()).then();
        }
    }

    static class FutureJob {
        @Scheduled(cron = "0 0 0 1 1 *")
        @ClusterSingleton(name = "future", lease = "2s")
        public CompletableFuture<String> run() {
            return CompletableFuture.supplyAsync(() -> {
                work();
                return "done";
            });
        }
    }
}
