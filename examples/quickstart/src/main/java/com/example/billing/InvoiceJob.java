package com.example.billing;

import io.jobguard.ClusterSingleton;
import io.jobguard.RunContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class InvoiceJob {

    private static final Logger log = LoggerFactory.getLogger(InvoiceJob.class);

    @Scheduled(cron = "${billing.invoice-cron:0 */5 * * * *}")
    @ClusterSingleton(name = "invoices", lease = "10m")
    public void sendInvoices() {
        // runs once per fire time (every 5 minutes) in the whole cluster
        RunContext run = RunContext.current().orElseThrow();
        log.info("sending invoices for fire time {} (fencing token {})", run.nominalFireTime(), run.fencingToken());
    }
}
