package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.RunContext;
import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.spring.JobGuardConfigCustomizer;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A web application with one guarded job that runs every second, used as two instances on one
 * Redis to drive pause, resume and run-now over HTTP; and, for retry, a daily job ({@code report}, which a test fails
 * through the engine under a fire time of its own) and a job this node only lists ({@code imported}, as a Quartz job
 * is). Callers authenticate the simple way a test can:
 * a servlet filter takes the user from {@code X-User} and the roles from {@code X-Roles}, exactly what
 * a container or Spring Security hands the actuator through {@code HttpServletRequest}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class ControlApp {

    static final FireLog LOG = new FireLog();
    /** Every run of the {@code report} job's method: {@code <node>|<fire time>|<attempt>}. */
    static final List<String> REPORTS = new CopyOnWriteArrayList<>();

    @Bean
    Tick tick(@Value("${jobguard.node-id}") String node) {
        return new Tick(node);
    }

    @Bean
    Report report(@Value("${jobguard.node-id}") String node) {
        return new Report(node);
    }

    @Bean
    GuardedJobsContributor imported() {
        return () -> List.of(new GuardedJobsContributor.ContributedJob("imported", "Quartz job reports.imported",
                "RETURN", "PT10S", "PT10S", "PT1S", "cron \"0 0 4 * * ?\"", null));
    }

    @Bean
    SmartInitializingSingleton decisions(JobGuard guard) {
        return () -> guard.addListener(e -> LOG.decided(e.nominalFireTime(), e.nodeId(), e.outcome().name()));
    }

    /** The engine's clock, offset by {@code test.clock-offset-ms} (for the health indicator's skew check). */
    @Bean
    JobGuardConfigCustomizer offsetClock(@Value("${test.clock-offset-ms:0}") long offsetMillis) {
        return builder -> builder.clock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMillis)));
    }

    @Bean
    Filter headerAuthentication() {
        return (request, response, chain) -> {
            HttpServletRequest http = (HttpServletRequest) request;
            String user = http.getHeader("X-User");
            if (user == null) {
                chain.doFilter(request, response);
                return;
            }
            Set<String> roles = Arrays.stream(String.valueOf(http.getHeader("X-Roles")).split(","))
                    .map(String::trim).collect(Collectors.toSet());
            chain.doFilter(new HttpServletRequestWrapper(http) {
                @Override
                public Principal getUserPrincipal() {
                    return () -> user;
                }

                @Override
                public boolean isUserInRole(String role) {
                    return roles.contains(role);
                }
            }, response);
        };
    }

    static class Tick {
        private final String node;

        Tick(String node) {
            this.node = node;
        }

        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "tick", lease = "10s")
        public void run() {
            long now = System.nanoTime();
            Instant fireTime = RunContext.current().map(RunContext::nominalFireTime).orElse(Instant.EPOCH);
            LOG.add(new FireLog.Run(fireTime, node, now, now, Thread.currentThread().getName()));
        }
    }

    static class Report {
        private final String node;

        Report(String node) {
            this.node = node;
        }

        /** Daily: within a test it runs only when a retry asks for it. */
        @Scheduled(cron = "0 0 3 * * *", zone = "UTC")
        @ClusterSingleton(name = "report", lease = "10s")
        public void run() {
            RunContext run = RunContext.current().orElseThrow();
            REPORTS.add(node + "|" + run.nominalFireTime() + "|" + run.attempt());
        }
    }
}
