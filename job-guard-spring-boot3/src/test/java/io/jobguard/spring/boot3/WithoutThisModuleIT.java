package io.jobguard.spring.boot3;

import io.jobguard.ClusterSingleton;
import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot 3.5 application with job-guard-spring alone (this module's classes left off its class path) runs its
 * guarded job, and its startup says what it lacks (the {@code jobguard} health indicator, the capped Lettuce
 * reconnect back-off) and names the artifact that brings both. {@link Boot3ApplicationIT} shows the line is absent
 * with the module.
 */
@WithRedis
class WithoutThisModuleIT {

    @Test
    void jobGuardSpringAloneOnBoot35RunsItsJobAndNamesWhatIsMissing(RedisServerProcess redis) throws Exception {
        assertThat(SpringBootVersion.getVersion()).as("the Boot line under test").startsWith("3.5.");
        Path module = Path.of(Boot3HealthAutoConfiguration.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI()).toAbsolutePath();
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> without = entries.stream().filter(e -> !Path.of(e).toAbsolutePath().equals(module)).toList();
        assertThat(without).as("the class path without %s", module).hasSize(entries.size() - 1);

        try (ChildJvm app = ChildJvm.start("boot35-alone", ChildJvm.QUICK_START,
                without.stream().collect(Collectors.joining(File.pathSeparator)), AloneApp.class,
                List.of(redis.host(), Integer.toString(redis.port())))) {
            app.await("ran", Duration.ofSeconds(90));
            assertThat(app.output().lines().toList()).as("the startup WARN").anySatisfy(line -> assertThat(line)
                    .contains("Spring Boot 3.5.").contains("without job-guard-spring-boot3")
                    .contains("'jobguard' health indicator").contains("reconnect back-off")
                    .contains("io.jobguard:job-guard-spring-boot3"));
        }
    }

    /** The Quickstart's shape, started in a JVM of its own by the test. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class AloneApp {

        /**
         * Starts the application against the given Redis.
         *
         * @param args Redis host and port
         */
        public static void main(String[] args) {
            new SpringApplicationBuilder(AloneApp.class).web(WebApplicationType.NONE)
                    .properties("spring.data.redis.host=" + args[0], "spring.data.redis.port=" + args[1],
                            "jobguard.namespace=boot3-alone", "jobguard.node-id=alone")
                    .run();
        }

        @Bean
        AloneTick tick() {
            return new AloneTick();
        }
    }

    /** The guarded job: tells the test it ran. */
    static class AloneTick {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "boot3-alone-tick", lease = "30s")
        public void run() {
            System.out.println(ChildJvm.PREFIX + "ran");
        }
    }
}
