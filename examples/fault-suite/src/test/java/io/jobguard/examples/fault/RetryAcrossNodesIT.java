package io.jobguard.examples.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failed fire time's next attempt runs on another node JVM: three node JVMs of the fault suite (scheduler clocks -2 s,
 * 0, +3 s) on a real redis-server, the retry job ({@link JobWork#RETRYING}: attempts 1 and 2 of every fire time fail,
 * attempt 3 succeeds, 1 s apart) once a minute, and the node whose attempt 1 just failed SIGSTOPped as soon as Redis
 * holds attempt 2 pending ({@link Scenario#RETRY_SIGSTOP}).
 *
 * <p>A node whose attempt fails runs the next one itself unless it is stopped: its failure wakes its own pass, which runs
 * the attempt once due. The other nodes' passes look for due attempts at least once a minute, and the job's next fire
 * time supersedes a pending attempt; so the job fires once a minute here, giving the other nodes' passes the minute they
 * may need. The guarantee shown: the pending attempt runs once, on another node, with a higher fencing token; the third
 * attempt runs once; the stopped node, continued, runs none of them again; the ledgers, the checker and the job's
 * history in Redis agree on which node ran which attempt with which token.
 */
class RetryAcrossNodesIT {

    @TempDir
    Path dir;

    @Test
    void anotherNodeRunsThePendingAttemptOfTheNodeStoppedRightAfterItsFailure() throws Exception {
        // the first fire time about 50 s from now: after the JVMs' start (20-30 s on a loaded 2-core machine) and the
        // runner's 8 s before it injects, so that the runner is already watching when attempt 1 fails
        int second = LocalTime.now(ZoneOffset.UTC).plusSeconds(50).getSecond();
        FaultSuite.Result result = FaultSuite.run(Scenario.RETRY_SIGSTOP, "job-guard", 20, dir,
                System.getProperty("java.class.path"), List.of("--fault.retry-cron=" + second + " * * * * *"));
        Path run = dir.resolve(Scenario.RETRY_SIGSTOP.cliName() + "-job-guard");
        String row = FaultSuite.header(20) + result.row();
        RetryVerdict retry = result.verdict().retry();

        // the fire time the fault was about: its attempt 1 ended last before the node was stopped
        long faultStart = runnerEvent(run, "FAULT_START");
        RetryVerdict.FireTime fire = retry.byFireTime().values().stream()
                .filter(f -> f.attempts().get(0).wall() < faultStart)
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no retry fire time before the fault\n" + row));
        List<RetryVerdict.Attempt> attempts = fire.attempts();
        String stopped = attempts.get(0).node();
        String at = "fire time " + fire.nominalFireTime() + " " + attempts + " " + fire.outcomes() + "\n" + row;
        System.out.print(result.row() + at.substring(0, at.indexOf('\n')) + "\n");

        // each attempt ran once, in order, with rising tokens; attempt 2 on another node than the stopped one
        assertThat(attempts).as(at).extracting(RetryVerdict.Attempt::attempt).containsExactly(1, 2, 3);
        assertThat(attempts).as(at).allMatch(RetryVerdict.Attempt::ended);
        assertThat(attempts.get(1).node()).as(at).isNotEqualTo(stopped);
        assertThat(attempts.get(1).wall()).as(at).isGreaterThan(faultStart);
        assertThat(attempts.get(1).token()).as(at).isGreaterThan(attempts.get(0).token());
        assertThat(attempts.get(2).token()).as(at).isGreaterThan(attempts.get(1).token());
        // one final outcome, RAN on attempt 3 by the node that ran it; the failures reported by the nodes that failed
        assertThat(fire.outcomes()).as(at).extracting(o -> o.outcome() + ":" + o.attempt() + "@" + o.node())
                .containsExactly("RETRY_PENDING:1@" + stopped, "RETRY_PENDING:2@" + attempts.get(1).node(),
                        "RAN:3@" + attempts.get(2).node());

        // the checker over the whole run: no attempt twice, one final outcome per settled fire time, none of its rules
        // broken, and the other jobs' verdicts as in every fault-suite run
        assertThat(retry.attemptsRunTwice()).as(row).isZero();
        assertThat(retry.withoutOneFinal()).as(row).isZero();
        assertThat(retry.notConsecutive() + retry.tokensNotRising() + retry.startedAfterFinal()
                + retry.outcomeMismatch()).as(row).isZero();
        assertThat(retry.onTwoNodes()).as(row).isPositive();
        assertThat(result.verdict().ranTwice()).as(row).isZero();
        assertThat(result.verdict().outOfOrder()).as(row).isZero();
        assertThat(result.verdict().batchOutOfOrder()).as(row).isZero();
        assertThat(result.verdict().missedOutside()).as(row).isZero();

        // the job's history as Redis kept it: the three attempts with the nodes and tokens the ledgers name
        List<String[]> history = Files.readAllLines(run.resolve(FaultSuite.RETRY_HISTORY)).stream()
                .filter(l -> !l.startsWith("#")).map(l -> l.split("\t"))
                .filter(f -> Long.parseLong(f[0]) == fire.nominalFireTime()).toList();
        assertThat(history).as("history %s", Files.readString(run.resolve(FaultSuite.RETRY_HISTORY)))
                .extracting(f -> f[1] + " " + f[2] + " " + f[3] + " " + f[4])
                .containsExactly(
                        "3 RAN " + attempts.get(2).node() + " " + attempts.get(2).token(),
                        "2 RETRY_PENDING " + attempts.get(1).node() + " " + attempts.get(1).token(),
                        "1 RETRY_PENDING " + stopped + " " + attempts.get(0).token());
    }

    private static long runnerEvent(Path run, String event) throws IOException {
        return Files.readAllLines(run.resolve(LedgerChecker.RUNNER_LEDGER)).stream().map(l -> l.split("\t"))
                .filter(f -> f[1].equals(event)).mapToLong(f -> Long.parseLong(f[0])).findFirst()
                .orElseThrow(() -> new AssertionError("no " + event + " in the runner's ledger"));
    }
}
