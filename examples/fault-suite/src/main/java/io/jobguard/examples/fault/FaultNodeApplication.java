package io.jobguard.examples.fault;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * One node of the fault suite, run by {@link FaultSuite} as its own JVM. Properties:
 * {@code fault.node} (its name), {@code fault.library} ({@code job-guard} or {@code shedlock}: which
 * library guards the same jobs), {@code fault.ledger} (its ledger file), {@code fault.clock-offset}
 * (its scheduler clock's fixed skew) and {@code fault.clock-file} (a file the runner writes a clock
 * step in milliseconds to). The jobs are in {@link JobGuardJobs} and {@link ShedLockJobs}, the node's
 * scheduler and ledger in {@link FaultNodeConfiguration}.
 */
@SpringBootApplication
@EnableScheduling
public class FaultNodeApplication {

    /**
     * Starts a node.
     *
     * @param args Spring Boot arguments, see the class comment
     */
    public static void main(String[] args) {
        SpringApplication.run(FaultNodeApplication.class, args);
    }
}
