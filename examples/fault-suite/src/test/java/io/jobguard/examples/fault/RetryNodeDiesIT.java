package io.jobguard.examples.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A retry whose node dies: three node JVMs of the fault suite (scheduler clocks -2 s, 0, +3 s) on a real redis-server,
 * the retry job ({@link JobWork#RETRYING}: attempts 1 and 2 of every fire time fail, attempt 3 succeeds, 1 s apart,
 * every 10 s) and the node running attempt 2 of a fire time SIGKILLed mid-run ({@link Scenario#RETRY_SIGKILL}). A dead
 * attempt is handled like a dead first run, by the job's delivery: under the default {@code AT_MOST_ONCE} the fire time
 * is reported {@code ABANDONED} once, by another node, and never runs again; under {@code AT_LEAST_ONCE} the dead
 * attempt runs again once, on another node, as attempt 3 with a higher fencing token, and succeeds. Judged from the
 * ledgers by the checker, each case well under two minutes.
 */
class RetryNodeDiesIT {

    @TempDir
    Path dir;

    @Test
    void underTheDefaultDeliveryTheFireTimeIsAbandonedOnceAndNeverRunAgain() throws Exception {
        Killed k = run(List.of());
        RetryVerdict.FireTime fire = k.fire();

        assertThat(fire.attempts()).as(k.at()).extracting(RetryVerdict.Attempt::attempt).containsExactly(1, 2);
        assertThat(fire.finals()).as(k.at()).singleElement().satisfies(o -> {
            assertThat(o.outcome()).isEqualTo("ABANDONED");
            assertThat(o.node()).isNotEqualTo(k.node());
        });
        assertThat(k.retry().finalOutcomes()).as(k.at()).containsEntry("ABANDONED", 1);
        assertThat(k.retry().rerunAfterDeath()).as(k.at()).isZero();
    }

    @Test
    void atLeastOnceRunsTheDeadAttemptAgainOnceWithAHigherToken() throws Exception {
        Killed k = run(List.of("--jobguard.jobs." + JobWork.RETRYING + ".delivery=AT_LEAST_ONCE"));
        RetryVerdict.FireTime fire = k.fire();
        List<RetryVerdict.Attempt> attempts = fire.attempts();

        // the dead attempt 2 runs again once, numbered 3 (the fire time's third run), elsewhere, with a higher token
        assertThat(attempts).as(k.at()).extracting(RetryVerdict.Attempt::attempt).containsExactly(1, 2, 3);
        RetryVerdict.Attempt again = attempts.get(2);
        assertThat(again.node()).as(k.at()).isNotEqualTo(k.node());
        assertThat(again.token()).as(k.at()).isGreaterThan(attempts.get(1).token());
        assertThat(again.ended()).as(k.at()).isTrue();
        assertThat(fire.finals()).as(k.at()).singleElement().satisfies(o -> {
            assertThat(o.outcome()).isEqualTo("RETRIED");
            assertThat(o.attempt()).isEqualTo(3);
            assertThat(o.node()).isEqualTo(again.node());
        });
        assertThat(k.retry().finalOutcomes()).as(k.at()).doesNotContainKey("ABANDONED");
    }

    /**
     * Runs the scenario and checks what holds under either delivery: one attempt died, attempt 2 on the killed node;
     * the checker finds no attempt run twice, no fire time without one final outcome, none of its rules broken; the
     * other jobs as in every run.
     */
    private Killed run(List<String> nodeArgs) throws Exception {
        FaultSuite.Result result = FaultSuite.run(Scenario.RETRY_SIGKILL, "job-guard", 20, dir,
                System.getProperty("java.class.path"), nodeArgs);
        Path run = dir.resolve(Scenario.RETRY_SIGKILL.cliName() + "-job-guard");
        String row = FaultSuite.header(20) + result.row();
        RetryVerdict retry = result.verdict().retry();
        String killed = killedNode(run);

        List<RetryVerdict.FireTime> dead = retry.byFireTime().values().stream()
                .filter(f -> f.attempts().stream().anyMatch(RetryVerdict.Attempt::died)).toList();
        assertThat(dead).as(row).hasSize(1);
        RetryVerdict.FireTime fire = dead.get(0);
        String at = "fire time " + fire.nominalFireTime() + " " + fire.attempts() + " " + fire.outcomes() + "\n" + row;
        System.out.print(result.row() + at.substring(0, at.indexOf('\n')) + "\n");
        RetryVerdict.Attempt died = fire.attempts().stream().filter(RetryVerdict.Attempt::died).findFirst().orElseThrow();
        assertThat(died.attempt()).as(at).isEqualTo(2);
        assertThat(died.node()).as(at).isEqualTo(killed);
        assertThat(retry.died()).as(row).isEqualTo(1);

        assertThat(retry.fireTimes()).as(row).isGreaterThanOrEqualTo(2);
        assertThat(retry.attemptsRunTwice()).as(row).isZero();
        assertThat(retry.withoutOneFinal()).as(row).isZero();
        assertThat(retry.notConsecutive() + retry.tokensNotRising() + retry.startedAfterFinal()
                + retry.outcomeMismatch()).as(row).isZero();
        // no start of the dead fire time after its one final outcome (ABANDONED: never again; RETRIED: done)
        long settled = fire.finals().stream().mapToLong(RetryVerdict.Outcome::wall).min().orElse(Long.MAX_VALUE);
        assertThat(fire.attempts()).as(at).allMatch(a -> a.wall() < settled);

        LedgerChecker.Verdict v = result.verdict();
        assertThat(v.ranTwice()).as(row).isZero();
        assertThat(v.outOfOrder()).as(row).isZero();
        assertThat(v.batchOutOfOrder()).as(row).isZero();
        assertThat(v.missedOutside()).as(row).isZero();
        return new Killed(killed, fire, retry, at);
    }

    private static String killedNode(Path run) throws IOException {
        List<String> killed = Files.readAllLines(run.resolve(LedgerChecker.RUNNER_LEDGER)).stream()
                .map(l -> l.split("\t")).filter(f -> f[1].equals("KILLED")).map(f -> f[3]).toList();
        assertThat(killed).hasSize(1);
        return killed.get(0);
    }

    /**
     * What one run showed.
     *
     * @param node  the node SIGKILLed while it ran attempt 2
     * @param fire  the fire time whose attempt died
     * @param retry the checker's verdict on the retry job
     * @param at    a description for failure messages
     */
    private record Killed(String node, RetryVerdict.FireTime fire, RetryVerdict retry, String at) {
    }
}
