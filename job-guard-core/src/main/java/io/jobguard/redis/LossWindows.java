package io.jobguard.redis;

import io.jobguard.store.JobId;
import io.jobguard.store.ScheduleClaim;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The history-loss window of each job measured from the fleet's clock leads (issue 16), never wider than
 * the configured one ({@code skew-tolerance}).
 *
 * <p>After Redis lost a job's history (epoch created at {@code C}, Redis time), a fire time {@code T} may
 * have run before the loss only if some node took it with a lead {@code L = T − grant time > T − C}; so
 * refusing {@code T < C + max L} over every node that may have taken a fire time before the loss is
 * enough. Each node measures its own lead from its grants (fire time minus the Redis {@code TIME} of the
 * grant, the largest over a horizon longer than any refusal) and publishes it with its schedule
 * ({@code schedule-publish.lua}, prefixed {@value #PREFIX}); each publication answers with the claims of
 * every live node, and those replies are this node's <em>views</em> of the fleet.
 *
 * <p>The measured window is used only when it is safe; otherwise the configured window is:
 * <ul>
 * <li>a view taken at least one check interval (a third of the claims' time to live) plus {@value #MARGIN_MILLIS}
 *     ms after {@code C}: every node alive since the loss has re-published by then (it publishes every interval,
 *     and at once when it learns of the loss), with a lead that covers its grants before the loss; only the
 *     claims of that view published at or after {@code C} count (a claim that survived a lossy failover says
 *     nothing of the grants after it); and a view taken before {@code C} (the nodes live before the loss);</li>
 * <li>every node of the view before the loss re-published after it (a node that stopped may have taken a
 *     fire time with a lead it never published), and every node of both published a lead (a node without
 *     the publication, e.g. an older version, is unknown);</li>
 * <li>every node this node saw taking fire times shortly before the loss (named in a refusal) re-published
 *     after it.</li>
 * </ul>
 * While a job's lost epoch has no such view yet ({@link #settling}), the store re-publishes before each
 * acquisition, so the first safe view comes with the first firing one interval after the loss instead of at
 * the next scheduled check.
 * Not covered: a node that joined after this node's last view before the loss and stopped before the first
 * view after it, or that never publishes, having taken fire times with a larger lead than every other node,
 * unseen by this one.
 */
final class LossWindows {

    private static final Logger log = LoggerFactory.getLogger(LossWindows.class);

    /** Marks a publication that carries the publisher's lead: {@code jglead:<millis>|<schedule>}. */
    static final String PREFIX = "jglead:";

    /** Views kept per job: enough to still hold one from before a loss several intervals after it. */
    private static final int VIEWS_KEPT = 8;

    /** Added to the measured lead: scheduler jitter between the grants a lead was measured on. */
    static final long MARGIN_MILLIS = 250;

    private final Deque<long[]> ownLeads = new ArrayDeque<>();
    private final Map<JobId, Deque<View>> views = new ConcurrentHashMap<>();
    /** Per job, per node: the Redis time of the latest grant of that node named in a reply to this one. */
    private final Map<JobId, Map<String, Long>> holders = new ConcurrentHashMap<>();
    private volatile long horizonMillis = Duration.ofMinutes(10).toMillis();

    /** Per job: the creation (Redis millis) of the lost epoch this node was refused by and has no measured window for. */
    private final Map<JobId, Long> unsettled = new ConcurrentHashMap<>();
    /**
     * Per job: the last view before the loss this node learned of, taken when it learned of it (the views after
     * the loss, one per acquisition while it settles, would soon push it out of the kept ones).
     */
    private final Map<JobId, View> beforeLoss = new ConcurrentHashMap<>();
    /** Per job: the loss (epoch creation) whose measured window was logged, so it is logged once. */
    private final Map<JobId, Long> announced = new ConcurrentHashMap<>();

    /**
     * One publication's reply: the Redis time of it, the claims' time to live, each live node's lead (-1: unknown)
     * and the Redis time each node's claim was published.
     */
    private record View(long at, long ttlMillis, Map<String, Long> leads, Map<String, Long> published) {

        /** The leads of the nodes that published at or after {@code since}. */
        Map<String, Long> leadsSince(long since) {
            Map<String, Long> recent = new HashMap<>();
            leads.forEach((node, lead) -> {
                if (published.getOrDefault(node, -1L) >= since) {
                    recent.put(node, lead);
                }
            });
            return recent;
        }
    }

    /**
     * Records one of this node's grants.
     *
     * @param fireMillis  the nominal fire time granted
     * @param grantMillis the Redis time of the grant
     */
    synchronized void granted(long fireMillis, long grantMillis) {
        long lead = Math.max(0, fireMillis - grantMillis);
        while (!ownLeads.isEmpty() && ownLeads.peekLast()[1] <= lead) {
            ownLeads.pollLast();
        }
        ownLeads.addLast(new long[] {grantMillis, lead});
    }

    /**
     * Records a grant of another node that a reply named (the holder in {@code ALREADY_RAN} or {@code BUSY}): a
     * node seen taking fire times must be in the view after a loss, publishing or not.
     *
     * @param job         the job
     * @param nodeId      the node that took it
     * @param grantMillis the Redis time of its grant
     */
    void sawHolder(JobId job, String nodeId, long grantMillis) {
        if (nodeId != null && !nodeId.isEmpty()) {
            holders.computeIfAbsent(job, j -> new ConcurrentHashMap<>()).merge(nodeId, grantMillis, Math::max);
        }
    }

    /** This node's largest lead over the horizon, as of Redis time {@code now}. */
    synchronized long ownLead(long now) {
        while (!ownLeads.isEmpty() && ownLeads.peekFirst()[0] < now - horizonMillis) {
            ownLeads.pollFirst();
        }
        return ownLeads.isEmpty() ? 0 : ownLeads.peekFirst()[1];
    }

    /** The schedule as published: with this node's lead (the horizon is long, so the local clock may trim it). */
    String publication(String schedule) {
        return PREFIX + ownLead(System.currentTimeMillis()) + "|" + schedule;
    }

    /**
     * Records a publication's reply as a view of the fleet and returns the claims with the leads taken out.
     *
     * @param job    the job published
     * @param nodeId this node, whose own claim carries the reply's Redis time
     * @param claims the claims as stored
     * @param ttl    the claims' time to live: three check intervals
     * @return the claims as the schedules were given
     */
    List<ScheduleClaim> viewed(JobId job, String nodeId, List<ScheduleClaim> claims, Duration ttl) {
        List<ScheduleClaim> plain = new ArrayList<>(claims.size());
        Map<String, Long> leads = new HashMap<>();
        Map<String, Long> published = new HashMap<>();
        long at = -1;
        for (ScheduleClaim claim : claims) {
            String schedule = claim.schedule();
            long lead = -1;
            int bar = schedule.indexOf('|');
            if (schedule.startsWith(PREFIX) && bar > PREFIX.length()) {
                try {
                    lead = Long.parseLong(schedule.substring(PREFIX.length(), bar));
                    schedule = schedule.substring(bar + 1);
                } catch (NumberFormatException e) {
                    lead = -1;
                }
            }
            leads.put(claim.nodeId(), lead);
            published.put(claim.nodeId(), claim.publishedAt().toEpochMilli());
            if (claim.nodeId().equals(nodeId)) {
                at = claim.publishedAt().toEpochMilli();
            }
            plain.add(new ScheduleClaim(claim.nodeId(), schedule, claim.publishedAt()));
        }
        horizonMillis = Math.max(horizonMillis, ttl.toMillis() * 2 + Duration.ofMinutes(1).toMillis());
        if (at >= 0) {
            Deque<View> kept = views.computeIfAbsent(job, j -> new ArrayDeque<>());
            synchronized (kept) {
                kept.addLast(new View(at, ttl.toMillis(), Map.copyOf(leads), Map.copyOf(published)));
                while (kept.size() > VIEWS_KEPT) {
                    kept.pollFirst();
                }
            }
        }
        return plain;
    }

    /**
     * The window to refuse fire times in after a loss of the job's history whose epoch was created at
     * {@code created}: the measured one when safe (see the class comment), else {@code configured}.
     *
     * @param job        the job
     * @param created    the epoch's creation (Redis millis) this node saw last; {@code ""} if none
     * @param configured the configured window, in millis
     * @return the window in millis, at most {@code configured}
     */
    long window(JobId job, String created, long configured) {
        horizonMillis = Math.max(horizonMillis, configured + Duration.ofMinutes(1).toMillis());
        long epoch;
        try {
            epoch = Long.parseLong(created);
        } catch (NumberFormatException e) {
            return configured;
        }
        Deque<View> kept = views.get(job);
        if (kept == null) {
            return configured;
        }
        View before = lastBefore(job, epoch);
        Map<String, Long> after = null;
        synchronized (kept) {
            for (View view : kept) {
                if (view.at() >= epoch + view.ttlMillis() / 3 + MARGIN_MILLIS) {
                    after = view.leadsSince(epoch);
                }
            }
        }
        if (before == null || after == null || !after.keySet().containsAll(before.leads().keySet())) {
            return configured;
        }
        for (Map.Entry<String, Long> holder : holders.getOrDefault(job, Map.of()).entrySet()) {
            // a grant before E - configured took a fire time below E: refused by any window
            if (holder.getValue() >= epoch - configured && !after.containsKey(holder.getKey())) {
                return configured;
            }
        }
        long max = 0;
        for (Map<String, Long> leads : List.of(before.leads(), after)) {
            for (long lead : leads.values()) {
                if (lead < 0) {
                    return configured;
                }
                max = Math.max(max, lead);
            }
        }
        long measured = Math.min(configured, max + MARGIN_MILLIS);
        if (measured < configured && !Long.valueOf(epoch).equals(announced.put(job, epoch))) {
            log.info("job-guard: job '{}' (namespace '{}'): every live node re-published its clock lead after the history "
                    + "loss noticed at {}; fire times from {} run again (the fleet's largest lead + {} ms = {} ms "
                    + "instead of skew-tolerance, {} ms)", job.name(), job.namespace(), Instant.ofEpochMilli(epoch),
                    Instant.ofEpochMilli(epoch + measured), MARGIN_MILLIS, measured, configured);
        }
        return measured;
    }

    /**
     * Records the reply of an acquisition: a {@code HISTORY_LOST} refusal starts the job's settling after the loss,
     * any other reply ends it.
     *
     * @param job     the job
     * @param created the epoch's creation (Redis millis) the reply named
     * @param lost    whether the reply was {@code HISTORY_LOST}
     */
    void replied(JobId job, String created, boolean lost) {
        if (!lost) {
            unsettled.remove(job);
            return;
        }
        long epoch;
        try {
            epoch = Long.parseLong(created);
        } catch (NumberFormatException e) {
            unsettled.remove(job);
            return;
        }
        if (!Long.valueOf(epoch).equals(unsettled.put(job, epoch))) {
            View before = lastBefore(job, epoch);
            if (before != null) {
                beforeLoss.put(job, before);
            }
        }
    }

    /** The last view of the job taken before {@code epoch}: kept when the loss was learned, else among the kept views. */
    private View lastBefore(JobId job, long epoch) {
        View before = beforeLoss.get(job);
        Deque<View> kept = views.get(job);
        if (kept != null) {
            synchronized (kept) {
                for (View view : kept) {
                    if (view.at() < epoch && (before == null || view.at() > before.at())) {
                        before = view;
                    }
                }
            }
        }
        return before != null && before.at() < epoch ? before : null;
    }

    /**
     * Whether the job is settling after a loss: this node was refused ({@code HISTORY_LOST}) for the epoch it saw
     * last, and no other reply came since. While the window for it is not measured yet, the store re-publishes
     * before each acquisition.
     *
     * @param job     the job
     * @param created the epoch's creation (Redis millis) this node saw last
     * @return {@code true} while the job settles after the loss of that epoch
     */
    boolean settling(JobId job, String created) {
        Long epoch = unsettled.get(job);
        return epoch != null && Long.toString(epoch).equals(created);
    }
}
