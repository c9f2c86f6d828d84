package io.jobguard.quartz;

import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Quartz job's {@code @ClusterSingleton(delivery)} when the node running a fire time dies: two Quartz nodes, each
 * in a JVM of its own ({@link KillableQuartzNode}) on one real Redis, share an every-two-seconds cron job with a 3 s
 * lease; the node that holds fire time T is killed with SIGKILL mid-run. With {@code AT_LEAST_ONCE} the other node
 * runs T again exactly once, as attempt 2 with a higher fencing token; with {@code AT_MOST_ONCE} T is not
 * run again and is reported ABANDONED. In both, no other fire time runs twice.
 */
@WithRedis
class QuartzKilledHolderIT {

    private static final Duration START = Duration.ofSeconds(60);

    private final RedisServerProcess redis;
    private final List<ChildJvm> children = new ArrayList<>();
    @TempDir
    Path dir;

    QuartzKilledHolderIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() {
        children.forEach(ChildJvm::close);
    }

    @Test
    void atLeastOnceRunsTheKilledHoldersFireTimeOnceMoreOnTheOtherNode() throws Exception {
        Killed killed = killHolder("AtLeastOnce", "kill-least");

        await().atMost(Duration.ofSeconds(30)).until(() -> runs(killed.survivor()).stream()
                .filter(r -> r.fireTime() > killed.fireTime()).count() >= 2);

        List<Run> all = allRuns();
        List<Run> ofT = all.stream().filter(r -> r.fireTime() == killed.fireTime()).toList();
        assertThat(ofT).as("runs of the killed fire time").hasSize(2);
        assertThat(ofT.get(0)).isEqualTo(killed.held());
        Run retry = ofT.get(1);
        assertThat(retry.node()).isEqualTo(killed.survivor().name());
        assertThat(retry.retry()).isTrue();
        assertThat(retry.attempt()).isEqualTo(2);
        assertThat(retry.token()).isGreaterThan(killed.held().token());
        assertThat(events(killed.survivor(), "RETRIED")).containsExactly(killed.fireTime());
        assertThat(ranTwice(all, killed.fireTime())).as("other fire times run more than once").isEmpty();
    }

    @Test
    void atMostOnceReportsTheKilledHoldersFireTimeAbandonedAndDoesNotRunItAgain() throws Exception {
        Killed killed = killHolder("AtMostOnce", "kill-most");

        await().atMost(Duration.ofSeconds(30)).until(() -> runs(killed.survivor()).stream()
                .filter(r -> r.fireTime() > killed.fireTime()).count() >= 2);

        List<Run> all = allRuns();
        assertThat(all.stream().filter(r -> r.fireTime() == killed.fireTime())).containsExactly(killed.held());
        assertThat(events(killed.survivor(), "ABANDONED")).containsExactly(killed.fireTime());
        assertThat(events(killed.survivor(), "RETRIED")).isEmpty();
        assertThat(ranTwice(all, killed.fireTime())).as("other fire times run more than once").isEmpty();
    }

    /**
     * Starts two nodes, makes the next run hold (the marker file), kills its node with SIGKILL while it holds and
     * lets later runs return at once (the marker deleted).
     */
    private Killed killHolder(String job, String namespace) throws Exception {
        Path marker = dir.resolve("hold");
        for (String name : List.of("a", "b")) {
            children.add(ChildJvm.start(name, ChildJvm.QUICK_START, KillableQuartzNode.class,
                    List.of(Integer.toString(redis.port()), namespace, name, job, marker.toString())));
        }
        for (ChildJvm child : children) {
            child.await("READY", START);
        }
        Files.createFile(marker);
        await().atMost(Duration.ofSeconds(20)).until(() -> children.stream()
                .anyMatch(c -> c.outputLines().stream().anyMatch(l -> l.startsWith(ChildJvm.PREFIX + "HOLDING"))));
        ChildJvm holder = children.stream()
                .filter(c -> c.outputLines().stream().anyMatch(l -> l.startsWith(ChildJvm.PREFIX + "HOLDING")))
                .findFirst().orElseThrow();
        holder.kill();
        Files.delete(marker);
        ChildJvm survivor = children.stream().filter(c -> c != holder).findFirst().orElseThrow();
        long fireTime = holder.outputLines().stream().filter(l -> l.startsWith(ChildJvm.PREFIX + "HOLDING"))
                .mapToLong(l -> Long.parseLong(l.split(" ")[3])).findFirst().orElseThrow();
        Run held = runs(holder).stream().filter(r -> r.fireTime() == fireTime).findFirst().orElseThrow();
        assertThat(held.attempt()).isEqualTo(1);
        assertThat(held.retry()).isFalse();
        return new Killed(held, fireTime, survivor);
    }

    private List<Run> allRuns() {
        List<Run> all = new ArrayList<>();
        children.forEach(c -> all.addAll(runs(c)));
        // the killed holder's run first: its node is the only one that ran T before the kill
        all.sort((x, y) -> Integer.compare(x.attempt(), y.attempt()));
        return all;
    }

    private static Map<Long, List<Run>> ranTwice(List<Run> all, long except) {
        return all.stream().filter(r -> r.fireTime() != except).collect(Collectors.groupingBy(Run::fireTime))
                .entrySet().stream().filter(e -> e.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** The {@code NODE RUN} lines a node printed. */
    private static List<Run> runs(ChildJvm child) {
        return child.outputLines().stream().filter(l -> l.startsWith(ChildJvm.PREFIX + "RUN ")).map(l -> {
            String[] f = l.split(" ");
            return new Run(f[2], Long.parseLong(f[3]), Integer.parseInt(f[4]), Boolean.parseBoolean(f[5]),
                    Long.parseLong(f[6]));
        }).toList();
    }

    /** The fire times of the {@code NODE EVENT} lines of one outcome a node printed. */
    private static List<Long> events(ChildJvm child, String outcome) {
        return child.outputLines().stream().filter(l -> l.startsWith(ChildJvm.PREFIX + "EVENT "))
                .map(l -> l.split(" ")).filter(f -> f[3].equals(outcome)).map(f -> Long.parseLong(f[4])).toList();
    }

    /** One started job body, as its node printed it. */
    private record Run(String node, long fireTime, int attempt, boolean retry, long token) {
    }

    /** The run that was killed, its fire time, and the node that lived. */
    private record Killed(Run held, long fireTime, ChildJvm survivor) {
    }
}
