package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/** Applications that must fail at startup, one per {@code test.case}. */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class BrokenApps {

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "not-scheduled")
    NotScheduled notScheduled() {
        return new NotScheduled();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "duplicate")
    First first() {
        return new First();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "duplicate")
    Second second() {
        return new Second();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "zero-lease")
    ZeroLease zeroLease() {
        return new ZeroLease();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "bad-duration")
    BadDuration badDuration() {
        return new BadDuration();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "reactive")
    Reactive reactive() {
        return new Reactive();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "valid")
    Valid valid() {
        return new Valid();
    }

    static class NotScheduled {
        @ClusterSingleton
        public void report() {
        }
    }

    static class First {
        @Scheduled(cron = "0 0 * * * *")
        @ClusterSingleton(name = "reports")
        public void run() {
        }
    }

    static class Second {
        @Scheduled(cron = "0 30 * * * *")
        @ClusterSingleton(name = "${test.second-name:reports}")
        public void run() {
        }
    }

    static class ZeroLease {
        @Scheduled(fixedRate = 60_000)
        @ClusterSingleton(lease = "0s")
        public void run() {
        }
    }

    static class BadDuration {
        @Scheduled(fixedRate = 60_000)
        @ClusterSingleton(lease = "${test.lease:forever}")
        public void run() {
        }
    }

    static class Reactive {
        @Scheduled(fixedRate = 60_000)
        @ClusterSingleton
        public Publisher<Void> run() {
            return Mono.empty();
        }
    }

    static class Valid {
        @Scheduled(cron = "0 0 * * * *")
        @ClusterSingleton(lease = "${test.lease:1m}")
        public void run() {
        }
    }
}
