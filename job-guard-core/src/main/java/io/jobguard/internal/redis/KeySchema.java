package io.jobguard.internal.redis;

import io.jobguard.internal.Names;
import io.jobguard.store.JobId;

import java.time.Instant;

/**
 * The one place that builds job-guard's Redis keys and channel names (README, "Keys in Redis").
 * Every key of one job shares the hash tag {@code {<ns>:<job>}} and every key of one batch
 * namespace the tag {@code {<ns>~batch}} (in spread mode: of one bucket, {@code {<ns>~batch~<n>}}),
 * so one script can touch them on Redis Cluster.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 *
 * @param prefix first segment of every key: checked here (not blank, no whitespace, control characters or
 *               braces, at most 200 characters), so every store that builds keys refuses a bad prefix
 */
public record KeySchema(String prefix) {

    /**
     * Checks the prefix.
     *
     * @throws IllegalArgumentException naming {@code keyPrefix} if the prefix breaks the rules above
     */
    public KeySchema {
        Names.keyPrefix(prefix, "keyPrefix");
    }

    private String jobBase(JobId job) {
        return prefix + ":{" + job.namespace() + ":" + job.name() + "}";
    }

    /** The keys of one job that are named by their kind alone (the fire-time marker also needs its fire time). */
    public enum JobKey {
        /** The job's run lease. */
        RUN_LEASE("run"),
        /** The job's pause flag, set while an operator has paused the job cluster-wide. */
        PAUSED("paused"),
        /** The job's fencing counter. */
        FENCE("fence"),
        /**
         * The job's epoch: written once (no TTL) with its creation time, so that the acquire script can tell a
         * store that kept the job's history from one that lost it.
         */
        EPOCH("epoch"),
        /** The job's fixed-delay cool-down. */
        COOLDOWN("cooldown"),
        /**
         * The job's run record (read by missed-fire-time recovery): a hash of the latest fire times handled, started and completed,
         * written by the acquire and release scripts.
         */
        RUN_RECORD("record"),
        /** The job's list of recent fire times. */
        HISTORY("history"),
        /**
         * The hash of schedules the nodes published for the job (field = node id, value =
         * {@code <published-at millis>|<schedule>}).
         */
        SCHEDULES("schedules");

        private final String suffix;

        JobKey(String suffix) {
            this.suffix = suffix;
        }
    }

    /**
     * Returns one of a job's keys.
     *
     * @param job  the job
     * @param kind which of its keys
     * @return the key
     */
    public String of(JobId job, JobKey kind) {
        return jobBase(job) + ":" + kind.suffix;
    }

    /**
     * Returns its fire-time marker key.
     *
     * @param job the job
     * @param nominalFireTime the fire time
     * @return its fire-time marker key
     */
    public String fireMarker(JobId job, Instant nominalFireTime) {
        return jobBase(job) + ":fired:" + nominalFireTime.toEpochMilli();
    }

    /**
     * Returns the common start of a batch namespace's keys: {@code <prefix>:{<ns>~batch}}. Its
     * fencing counter, lease index and (by default) its locked keys live under it, in one slot.
     *
     * @param namespace batch namespace
     * @return the key base of the namespace
     */
    public String batchBase(String namespace) {
        return prefix + ":{" + namespace + "~batch}";
    }

    /**
     * Returns the key base of one spread-mode bucket: {@code <prefix>:{<tag>}}.
     *
     * @param tag the bucket's hash tag
     * @return the key base of the bucket
     */
    public String batchBucketBase(String tag) {
        return prefix + ":{" + tag + "}";
    }

    /**
     * Returns the hash of locked business keys under a batch key base (field = business key,
     * value = owner token).
     *
     * @param base a key base from {@link #batchBase} or {@link #batchBucketBase}
     * @return the hash of locked keys
     */
    public String batchHeld(String base) {
        return base + ":held";
    }

    /**
     * Returns the prefix of batch lease records under a key base; a lease's record is this
     * prefix followed by its owner token.
     *
     * @param base a key base from {@link #batchBase} or {@link #batchBucketBase}
     * @return the record key prefix
     */
    public String batchLeaseRecords(String base) {
        return base + ":lease:";
    }

    /**
     * Returns the index of live batch leases (sorted set).
     *
     * @param namespace batch namespace
     * @return the index of live batch leases (sorted set)
     */
    public String batchLeases(String namespace) {
        return batchBase(namespace) + ":leases";
    }

    /**
     * Returns the batch fencing counter.
     *
     * @param namespace batch namespace
     * @return the batch fencing counter
     */
    public String batchFence(String namespace) {
        return batchBase(namespace) + ":fence";
    }

    /**
     * Returns the key of a ShedLock lock taken through {@code JobGuardLockProvider}. Each lock name
     * is its own hash tag: a ShedLock lock is one key, touched alone.
     *
     * @param namespace the namespace
     * @param name      the ShedLock lock name
     * @return the lock key
     */
    public String shedLock(String namespace, String name) {
        return prefix + ":{" + namespace + "~shedlock:" + name + "}:lock";
    }

    /**
     * Returns the hash of the fleet's clock leads ({@code fleet-leads.lua}): one field per node, written by each
     * node every half second, and the hash's lineage (when it was created). Not in any job's slot: it tells a
     * node how far ahead the fleet ran when Redis lost its data.
     *
     * @return the leads hash of this prefix
     */
    public String fleetLeads() {
        return prefix + ":leads";
    }

    /**
     * Returns the leads hash of one Redis Cluster master: {@code <prefix>:leads:{<tag>}}, in the slot of {@code tag}, one
     * the master owns, so its lineage dates a loss of that master's keys.
     *
     * @param tag a hash tag without braces
     * @return the leads hash of the master owning the tag's slot
     */
    public String fleetLeads(String tag) {
        return prefix + ":leads:{" + tag + "}";
    }

    /**
     * Returns the pub/sub channel on which releases are announced.
     *
     * @return the pub/sub channel on which releases are announced
     */
    public String releaseChannel() {
        return prefix + ":released";
    }

    /**
     * Returns the message announcing a release of its run lease.
     *
     * @param job the job
     * @return the message announcing a release of its run lease
     */
    public String runReleaseTopic(JobId job) {
        return "run|" + job.namespace() + "|" + job.name();
    }

    /**
     * Returns the message announcing a batch release in it.
     *
     * @param namespace batch namespace
     * @return the message announcing a batch release in it
     */
    public String batchReleaseTopic(String namespace) {
        return "batch|" + namespace;
    }
}
