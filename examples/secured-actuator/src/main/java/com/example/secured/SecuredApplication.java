package com.example.secured;

import io.jobguard.ClusterSingleton;
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
import org.springframework.stereotype.Component;

/**
 * The {@code jobguard} actuator endpoint behind Spring Security, the way Boot's actuator documentation
 * secures endpoints: every actuator request needs an authenticated caller (HTTP Basic here), and
 * job-guard's own {@code jobguard.actuator.write-role} (see {@code application.properties}) decides
 * who may pause, resume, run-now or force-release. Two in-memory users: {@code ops} with the role
 * {@code OPS}, {@code viewer} with {@code VIEWER}.
 */
@SpringBootApplication
@EnableScheduling
public class SecuredApplication {

    /**
     * Starts the application.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(SecuredApplication.class, args);
    }

    /**
     * Actuator requests need an authenticated caller; the endpoint checks the write role itself.
     *
     * @param http the security builder
     * @return the filter chain for the actuator
     * @throws Exception if the chain cannot be built
     */
    @Bean
    SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
        return http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                // the endpoint is called by scripts and tools, not from a browser session
                .csrf(csrf -> csrf.disable())
                .build();
    }

    /**
     * Demo users; a real application uses its own identity provider.
     *
     * @return the users
     */
    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("ops").password("{noop}ops-secret").roles("OPS").build(),
                User.withUsername("viewer").password("{noop}viewer-secret").roles("VIEWER").build());
    }

    /** A guarded job to operate on. */
    @Component
    static class Report {

        /** Runs every second, once in the cluster per fire time. */
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "report")
        public void run() {
            // the work of the job; the endpoint shows its fire times
        }
    }
}
