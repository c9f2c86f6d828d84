package io.jobguard.internal.redis.loss;

import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.internal.redis.fleet.LeadShards;
import io.jobguard.internal.redis.fleet.RecentMaximum;
import io.jobguard.store.JobId;
import io.jobguard.store.ScheduleClaim;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Which fire times a node refuses after Redis lost a job's history: those some node may have taken before the loss.
 * They are judged from the fleet's clock leads this node holds in memory ({@link FleetLeads}), never wider than the
 * configured window ({@code skew-tolerance}). When this node cannot know every lead that counts (it did not read the fleet
 * before the loss, a lead is unknown after a clock step, a node seen taking the job's fire times never published, its
 * own reads of the fleet lay more than the retention apart within the horizon before the loss),
 * the window is the configured one. The argument, when the judged window applies and the one case it does not cover:
 * docs/reliability.md, "A lost history is not rerun".
 */
public final class LossWindows {

    /** The logger category of releases before the move to this package, which log configurations name. */
    private static final Logger log = LoggerFactory.getLogger(LossWindows.class);

    /** Marks a schedule publication that carries the publisher's lead: {@code jglead:<millis>|<schedule>}. */
    static final String PREFIX = "jglead:";

    /** Added to the measured lead: scheduler jitter and the error of the measured clock offset. */
    public static final long MARGIN_MILLIS = 250;

    /** The window judged for one acquisition: refuse fire times before {@code anchor + millis}; anchor -1: the epoch's. */
    public record Window(long anchor, long millis) {
    }

    /** A node's largest lead in the horizon (and when it was published), its last publication, its last unknown lead. */
    private record Known(long lead, long leadAt, long lastAt, long unknownAt) {
    }

    /**
     * Per job: the epoch this node saw last, the lineage it read then, and the lineage when it saw the epoch before;
     * lineages qualified by their shard ({@code <shard>#<lineage>}), {@code null} when not known.
     */
    private record Sight(String epoch, String lineage, String previousLineage) {
    }

    private final RecentMaximum ownLeads = new RecentMaximum();
    private final Map<String, Known> fleet = new ConcurrentHashMap<>();
    private final Map<JobId, Map<String, Long>> holders = new ConcurrentHashMap<>();
    private final Map<JobId, Sight> sights = new ConcurrentHashMap<>();
    private final Map<JobId, Long> announced = new ConcurrentHashMap<>();
    /** Per job: the epoch a HISTORY_LOST reply named last (the measured window is logged only for a loss). */
    private final Map<JobId, String> lost = new ConcurrentHashMap<>();
    /** Per job: the first fire time no longer refused after the loss that refused it last (Redis millis). */
    private final Map<JobId, Long> refusals = new ConcurrentHashMap<>();
    private final Function<JobId, String> shardOf;
    /** Per shard: the lineage of its leads hash this node read last. */
    private final Map<String, String> lineages = new ConcurrentHashMap<>();
    /** Per shard: the lineage of this node's first read of it: what it knew first, for jobs it never saw before a loss. */
    private final Map<String, String> firstLineages = new ConcurrentHashMap<>();
    private volatile long horizonMillis = Duration.ofMinutes(10).toMillis();
    private volatile long offsetMillis;
    private volatile long stepNanos = Long.MIN_VALUE;
    private volatile long firstViewAt = -1;
    private volatile long lastViewAt = -1;
    private volatile long lastViewNanos;
    /** The Redis time of the read that ended this node's latest gap in its reads of the fleet (-1 if none). */
    private volatile long gapEndAt = -1;

    /** @param shardOf the shard whose leads hash lives with a job's keys ({@code null} when not known) */
    public LossWindows(Function<JobId, String> shardOf) {
        this.shardOf = shardOf;
    }

    /** Records one of this node's grants: fire time and the Redis time of the grant. */
    public void granted(long nominalFireTimeMillis, long grantMillis) {
        ownLeads.add(grantMillis, Math.max(0, nominalFireTimeMillis - grantMillis));
    }

    /** Records a grant of another node that a reply named: a node seen taking fire times must be a publisher. */
    public void sawHolder(JobId job, String nodeId, long grantMillis) {
        if (nodeId != null && !nodeId.isEmpty()) {
            holders.computeIfAbsent(job, j -> new ConcurrentHashMap<>()).merge(nodeId, grantMillis, Math::max);
        }
    }

    /** This node's largest lead from its grants over the horizon, as of Redis time {@code now}. */
    long ownLead(long now) {
        return ownLeads.max(now, horizonMillis, 0);
    }

    /** Records this node's clock minus Redis' clock, measured by a publication. */
    public void offset(long millis) {
        offsetMillis = millis;
    }

    /** This node's clock minus Redis' clock, as last measured. */
    public long offset() {
        return offsetMillis;
    }

    /** Records a step of this node's wall clock: its lead is unknown for the horizon. */
    public void clockStepped(long nanos) {
        stepNanos = nanos;
    }

    /** The lead this node publishes: -1 (unknown) for a horizon after a clock step. */
    public long publishedLead() {
        long step = stepNanos;
        if (step != Long.MIN_VALUE && System.nanoTime() - step < horizonMillis * 1_000_000L) {
            return -1;
        }
        long now = redisNow();
        return Math.max(Math.max(0, offsetMillis), ownLead(now < 0 ? System.currentTimeMillis() - offsetMillis : now));
    }

    /** The largest lead this node knows of a node other than {@code own} (0 if none), over the horizon. */
    public long fleetMax(Set<String> own) {
        long max = 0;
        for (Map.Entry<String, Known> e : fleet.entrySet()) {
            if (!own.contains(e.getKey()) && e.getValue().lastAt >= lastViewAt - horizonMillis) {
                max = Math.max(max, e.getValue().unknownAt >= lastViewAt - horizonMillis ? Long.MAX_VALUE / 4 : e.getValue().lead);
            }
        }
        return max;
    }

    /** How long the job's refusal after a loss lasts from Redis' clock now, as this node estimates it. */
    public Duration refusalLeft(JobId job) {
        Long until = refusals.get(job);
        return until == null ? null : Duration.ofMillis(Math.max(0, until - redisNow()));
    }

    /** The jobs whose refusal after a loss lasts beyond Redis' clock now, with its end. */
    public Map<JobId, Instant> recovering() {
        long now = redisNow() < 0 ? System.currentTimeMillis() : redisNow();
        Map<JobId, Instant> out = new HashMap<>();
        refusals.forEach((job, until) -> {
            if (until > now) {
                out.put(job, Instant.ofEpochMilli(until));
            }
        });
        return Map.copyOf(out);
    }

    /** The lineage of the shard's leads hash this node read last ({@code ""} if none). */
    public String lineage(String shard) {
        return lineages.getOrDefault(shard, "");
    }

    /**
     * Whether the leads hash that lives with the job's keys was re-created after a loss within the horizon, as of the
     * last read; when the job's shard is not known, whether any was.
     */
    public boolean recentLoss(JobId job) {
        String shard = shardOf.apply(job);
        return shard == null ? lineages.values().stream().anyMatch(this::recentLoss) : recentLoss(lineage(shard));
    }

    private boolean recentLoss(String lineage) {
        return lineage.endsWith("|lost") && lastViewAt - created(lineage) < horizonMillis;
    }

    /** The job's shard's lineage as last read, qualified by the shard; {@code null} when not known. */
    private String qualifiedLineage(JobId job, Map<String, String> from) {
        String shard = shardOf.apply(job);
        String lineage = shard == null ? null : from.get(shard);
        return lineage == null ? null : shard + "#" + lineage;
    }

    private static String shard(String qualified) {
        return qualified.substring(0, qualified.indexOf('#'));
    }

    /** The schedule as published: with this node's lead (kept for nodes of earlier versions). */
    public String publication(String schedule) {
        return PREFIX + Math.max(0, publishedLead()) + "|" + schedule;
    }

    /** The claims of a schedule publication with the leads taken out. */
    public List<ScheduleClaim> viewed(List<ScheduleClaim> claims) {
        List<ScheduleClaim> plain = new ArrayList<>(claims.size());
        for (ScheduleClaim claim : claims) {
            String schedule = claim.schedule();
            int bar = schedule.indexOf('|');
            if (schedule.startsWith(PREFIX) && bar > PREFIX.length()) {
                schedule = schedule.substring(bar + 1);
            }
            plain.add(new ScheduleClaim(claim.nodeId(), schedule, claim.publishedAt()));
        }
        return plain;
    }

    /**
     * Records one read of the fleet's leads.
     *
     * @param at      the Redis time of the read
     * @param shard   the shard whose leads hash was read ({@link LeadShards})
     * @param lineage the leads hash's lineage
     * @param entries per node: {published-at, lead}
     */
    public void fleetViewed(long at, String shard, String lineage, Map<String, long[]> entries) {
        String previous = lineages.put(shard, lineage);
        long last = lastViewAt;
        if (last >= 0 && at - last > FleetLeads.RETENTION_MILLIS) {
            // a node may have published a lead and left meanwhile, its entry deleted before this read; unless Redis
            // lost the hash in between (a re-created hash holds no entry from before the loss to miss)
            if (previous == null || previous.equals(lineage)) {
                gapEndAt = Math.max(gapEndAt, at);
                log.debug("job-guard: this node's reads of the fleet's leads lie {} ms apart (until {}): a loss in the "
                        + "next {} ms keeps skew-tolerance", at - last, at, horizonMillis);
            }
        }
        firstLineages.putIfAbsent(shard, lineage);
        if (firstViewAt < 0) {
            firstViewAt = at;
        }
        entries.forEach((node, e) -> fleet.merge(node, known(e[0], e[1]), (old, now) -> new Known(
                now.lead >= old.lead || old.leadAt < now.lastAt - horizonMillis ? now.lead : old.lead,
                now.lead >= old.lead || old.leadAt < now.lastAt - horizonMillis ? now.leadAt : old.leadAt,
                Math.max(old.lastAt, now.lastAt), Math.max(old.unknownAt, now.unknownAt))));
        fleet.values().removeIf(k -> k.lastAt < at - horizonMillis && k.unknownAt < at - horizonMillis);
        lastViewAt = Math.max(lastViewAt, at);
        lastViewNanos = System.nanoTime();
    }

    /** Whether a gap in this node's reads of the fleet ended within the horizon before {@code anchor}, or after it. */
    private boolean gapNear(long anchor) {
        long end = gapEndAt;
        return end >= 0 && end > anchor - horizonMillis;
    }

    private static Known known(long at, long lead) {
        return lead < 0 ? new Known(0, at, at, at) : new Known(lead, at, at, Long.MIN_VALUE);
    }

    /** This node's estimate of Redis' clock now, from its last read (-1 if none). */
    public long redisNow() {
        return lastViewAt < 0 ? -1 : lastViewAt + (System.nanoTime() - lastViewNanos) / 1_000_000L;
    }

    /**
     * Records an acquisition's reply: the epoch it named (the lineage read then dates a later loss of it) and, for a
     * {@code HISTORY_LOST} refusal, the first fire time no longer refused ({@code refusedUntil}, Redis millis).
     */
    public void replied(JobId job, String created, String status, long refusedUntil) {
        if ("ACQUIRED".equals(status)) {
            refusals.remove(job);
        }
        if (created == null || created.isEmpty()) {
            return;
        }
        if ("HISTORY_LOST".equals(status)) {
            lost.put(job, created);
            refusals.put(job, refusedUntil);
        }
        String now = qualifiedLineage(job, lineages);
        sights.compute(job, (j, s) -> s == null || !s.epoch().equals(created)
                ? new Sight(created, now, s == null ? null : s.lineage()) : new Sight(created, now, s.previousLineage()));
    }

    /** The earliest Redis time the loss of the job's epoch created at {@code epoch} may have happened after. */
    private long anchor(JobId job, String created, long epoch) {
        Sight sight = sights.get(job);
        String current = qualifiedLineage(job, lineages);
        if (sight == null || !sight.epoch().equals(created) || current == null) {
            return epoch;
        }
        // the lineage when this node saw the job's previous epoch; for a job it meets first with this (lost) epoch,
        // the lineage of its first read: a loss of the job's keys before that read would not date after it. Only a
        // lineage of the same shard dates the loss: another master's hash says nothing of the job's keys.
        String before = sight.previousLineage() != null ? sight.previousLineage() : qualifiedLineage(job, firstLineages);
        if (before != null && shard(before).equals(shard(current)) && !current.equals(before)) {
            return Math.min(epoch, created(current.substring(current.indexOf('#') + 1)));
        }
        return epoch;
    }

    /**
     * The window to refuse fire times in after a loss of the job's history whose epoch was created at {@code created}:
     * measured when safe (see the class comment), else {@code configured} from the epoch.
     *
     * @param job        the job
     * @param created    the epoch's creation (Redis millis) this node saw last; {@code ""} if none
     * @param configured the configured window, in millis
     * @return the window
     */
    public Window window(JobId job, String created, long configured) {
        horizonMillis = Math.max(horizonMillis, configured + Duration.ofMinutes(1).toMillis());
        long epoch;
        try {
            epoch = Long.parseLong(created);
        } catch (NumberFormatException e) {
            return new Window(-1, configured);
        }
        long anchor = anchor(job, created, epoch);
        long since = anchor - horizonMillis;
        if (firstViewAt < 0 || firstViewAt >= anchor || lastViewAt < settledAt(anchor) || startedAfterLoss(job, anchor)) {
            log.debug("job-guard: job '{}': loss from {}: skew-tolerance (fleet first read at {}, last at {})", job.name(),
                    anchor, firstViewAt, lastViewAt);
            return new Window(-1, configured);
        }
        if (gapNear(anchor)) {
            log.debug("job-guard: job '{}': loss from {}: skew-tolerance (this node's reads of the fleet had a gap "
                    + "until {})", job.name(), anchor, gapEndAt);
            return new Window(-1, configured);
        }
        long max = 0;
        for (Known known : fleet.values()) {
            if (known.lastAt >= since) {
                if (known.unknownAt >= since) {
                    log.debug("job-guard: job '{}': loss from {}: skew-tolerance (a node's clock stepped)", job.name(), anchor);
                    return new Window(-1, configured);
                }
                max = Math.max(max, known.lead);
            }
        }
        for (Map.Entry<String, Long> holder : holders.getOrDefault(job, Map.of()).entrySet()) {
            Known known = fleet.get(holder.getKey());
            if (holder.getValue() >= epoch - configured && (known == null || known.lastAt < since)) {
                return new Window(-1, configured); // a node took fire times of the job without publishing its lead
            }
        }
        long measured = Math.min(configured, max + MARGIN_MILLIS);
        log.debug("job-guard: job '{}': loss from {} (epoch {}): window {} ms", job.name(), anchor, epoch, measured);
        if (measured < configured && created.equals(lost.get(job)) && !Long.valueOf(anchor).equals(announced.put(job, anchor))) {
            log.info("job-guard: job '{}' (namespace '{}'): history lost no later than {}; fire times from {} run again "
                    + "(the fleet's largest clock lead known in memory + {} ms = {} ms instead of skew-tolerance, {} ms)",
                    job.name(), job.namespace(), Instant.ofEpochMilli(anchor), Instant.ofEpochMilli(anchor + measured),
                    MARGIN_MILLIS, measured, configured);
        }
        return new Window(anchor, measured);
    }

    /**
     * Whether this node's first read of the job's leads hash was already of a hash re-created by a loss within the
     * horizon before {@code anchor}: a node that started during an outage (or after a loss) reads the fleet before the
     * job's epoch is re-created, yet knows nothing of the leads from before the loss that may have taken the epoch.
     */
    private boolean startedAfterLoss(JobId job, long anchor) {
        String first = qualifiedLineage(job, firstLineages);
        if (first == null || !first.equals(qualifiedLineage(job, lineages)) || !first.endsWith("|lost")) {
            return false;
        }
        return anchor - created(first.substring(first.indexOf('#') + 1)) < horizonMillis;
    }

    /** When every live node has re-published after {@code anchor} and this node has read it. */
    static long settledAt(long anchor) {
        return anchor + FleetLeads.INTERVAL_MILLIS + MARGIN_MILLIS;
    }

    /**
     * Whether waiting for the fleet's re-publication may narrow the window for a loss this node just learned of
     * (it saw the fleet before), and until which Redis time.
     *
     * @return the Redis time to wait for, or -1 when waiting cannot help
     */
    public long worthWaitingUntil(JobId job, String created) {
        long epoch;
        try {
            epoch = Long.parseLong(created);
        } catch (NumberFormatException e) {
            return -1;
        }
        long anchor = anchor(job, created, epoch);
        return firstViewAt >= 0 && firstViewAt < anchor ? settledAt(anchor) : -1;
    }

    private static long created(String lineage) {
        int bar = lineage.indexOf('|');
        try {
            return Long.parseLong(bar > 0 ? lineage.substring(0, bar) : lineage);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
