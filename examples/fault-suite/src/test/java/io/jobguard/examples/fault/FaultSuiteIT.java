package io.jobguard.examples.fault;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite's short subset in {@code mvn verify}: three node JVMs guarded by job-guard, a
 * real redis-server, and faults today's code passes. The checker must find no fire time run twice,
 * no overlap with the tokens out of order, no batch key with two holders, and misses only inside
 * the fault window. The whole suite is {@code examples/run-fault-suite.sh}.
 */
class FaultSuiteIT {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Scenario.class, names = {"SIGKILL_HOLDER"})
    void jobGuardRunsEachFireTimeAtMostOnceThroughTheFault(Scenario scenario) throws Exception {
        FaultSuite.Result result = FaultSuite.run(scenario, "job-guard", 20, dir, System.getProperty("java.class.path"),
                List.of());
        LedgerChecker.Verdict v = result.verdict();
        String row = FaultSuite.header(20) + result.row();

        assertThat(v.runs()).as(row).isGreaterThan(10);
        assertThat(v.batches()).as(row).isPositive();
        assertThat(v.ranTwice()).as(row).isZero();
        assertThat(v.outOfOrder()).as(row).isZero();
        assertThat(v.batchTwoHolders()).as(row).isZero();
        assertThat(v.missedOutside()).as(row).isZero();
        // the nodes ran the job again after the fault
        assertThat(v.recoveryMillis()).as(row).isNotNull();
    }
}
