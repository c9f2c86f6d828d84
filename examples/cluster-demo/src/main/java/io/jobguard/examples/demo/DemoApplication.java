package io.jobguard.examples.demo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * One node of the demo cluster. {@code demo.clock-offset} (demo only) shifts this node's scheduler
 * clock ({@link SkewedScheduler}), as if the server's clock were wrong by that much; job-guard still
 * runs each nominal fire time once in the cluster. The jobs are in {@link DemoJobs} and {@link OrderService}.
 */
@SpringBootApplication
@EnableScheduling
public class DemoApplication {

    /**
     * Starts a node.
     *
     * @param args Spring Boot arguments, e.g. {@code --demo.node=node-A --demo.clock-offset=-2s}
     */
    public static void main(String[] args) {
        SpringApplication.run(DemoApplication.class, args);
    }
}
