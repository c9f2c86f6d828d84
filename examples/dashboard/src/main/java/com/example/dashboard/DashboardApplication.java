package com.example.dashboard;

import io.jobguard.ClusterSingleton;
import io.jobguard.RunContext;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Three guarded jobs with the {@code jobguard} dashboard turned on ({@code jobguard.actuator.dashboard-enabled=true}):
 * open {@code /actuator/jobguard/dashboard/index.html}. The actuator is behind Spring Security: with
 * {@code app.security=basic} (the default) every actuator request, the page included, needs the user {@code ops}
 * (password {@code ops-secret}, role {@code OPS}: the buttons show);
 * {@code app.security=open} lets anyone in (a test setting, like an actuator on a private management network), with
 * CSRF protection still on in the form a single-page app uses (the page sends the {@code XSRF-TOKEN} cookie back).
 */
@SpringBootApplication
@EnableScheduling
public class DashboardApplication {

    /** Every run of a job body in this JVM: (job, node, nominal fire time), what the browser test checks the page against. */
    public static final ConcurrentLinkedQueue<Run> LEDGER = new ConcurrentLinkedQueue<>();

    /**
     * One run of a job body.
     *
     * @param job             the job
     * @param node            the node that ran it
     * @param nominalFireTime its nominal fire time
     */
    public record Run(String job, String node, Instant nominalFireTime) {
    }

    /**
     * Starts the application.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(DashboardApplication.class, args);
    }

    /**
     * The actuator's security: authenticated (HTTP Basic) unless {@code app.security=open}; CSRF protection as a
     * single-page app needs it (token in a cookie the page's script reads), so the page's writes are CSRF-safe.
     *
     * @param http     the security builder
     * @param security {@code basic} or {@code open}
     * @return the filter chain for the actuator
     * @throws Exception if the chain cannot be built
     */
    @Bean
    SecurityFilterChain actuatorSecurity(HttpSecurity http, @Value("${app.security:basic}") String security)
            throws Exception {
        http.securityMatcher(EndpointRequest.toAnyEndpoint()).csrf(csrf -> csrf.spa());
        if ("open".equals(security)) {
            http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll());
        } else {
            http.authorizeHttpRequests(requests -> requests.anyRequest().hasRole("OPS")).httpBasic(Customizer.withDefaults());
        }
        return http.build();
    }

    /**
     * Demo user; a real application uses its own identity provider.
     *
     * @return the users
     */
    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(User.withUsername("ops").password("{noop}ops-secret").roles("OPS").build());
    }

    /**
     * The jobs.
     *
     * @param node this node's id
     * @return the jobs
     */
    @Bean
    Jobs jobs(@Value("${jobguard.node-id}") String node) {
        return new Jobs(node);
    }

    /**
     * Three guarded jobs that record each run in the {@link #LEDGER}: two frequent ones, and a nightly one whose failed
     * fire time an operator may run once more from the page (its Retry button).
     */
    public static class Jobs {

        private final String node;

        Jobs(String node) {
            this.node = node;
        }

        /** Every second, once in the cluster per fire time. */
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "billing-sync")
        public void billingSync() {
            record("billing-sync");
        }

        /** Every two seconds; takes a little over a second, so the page often shows it running. */
        @Scheduled(cron = "*/2 * * * * *")
        @ClusterSingleton(name = "invoice-export")
        public void invoiceExport() throws InterruptedException {
            record("invoice-export");
            Thread.sleep(1200);
        }

        /** Every night at 03:00 UTC; when a night's run fails, the page offers to retry it. */
        @Scheduled(cron = "0 0 3 * * *", zone = "UTC")
        @ClusterSingleton(name = "nightly-report")
        public void nightlyReport() {
            record("nightly-report");
        }

        private void record(String job) {
            LEDGER.add(new Run(job, node, RunContext.current().map(RunContext::nominalFireTime).orElse(Instant.EPOCH)));
        }

        /**
         * The runs recorded in this JVM.
         *
         * @return a snapshot
         */
        public static List<Run> ledger() {
            return List.copyOf(LEDGER);
        }
    }
}
