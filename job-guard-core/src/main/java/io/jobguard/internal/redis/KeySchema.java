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

    /**
     * Returns its run lease key.
     *
     * @param job the job
     * @return its run lease key
     */
    public String runLease(JobId job) {
        return jobBase(job) + ":run";
    }

    /**
     * Returns its pause flag key (set while an operator has paused the job cluster-wide).
     *
     * @param job the job
     * @return its pause flag key
     */
    public String paused(JobId job) {
        return jobBase(job) + ":paused";
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
     * Returns its fencing counter key.
     *
     * @param job the job
     * @return its fencing counter key
     */
    public String fence(JobId job) {
        return jobBase(job) + ":fence";
    }

    /**
     * Returns its epoch key: written once (no TTL) with its creation time, so that the acquire
     * script can tell a store that kept the job's history from one that lost it.
     *
     * @param job the job
     * @return its epoch key
     */
    public String epoch(JobId job) {
        return jobBase(job) + ":epoch";
    }

    /**
     * Returns its fixed-delay cool-down key.
     *
     * @param job the job
     * @return its fixed-delay cool-down key
     */
    public String cooldown(JobId job) {
        return jobBase(job) + ":cooldown";
    }

    /**
     * Returns its run record (issue 15): a hash of the latest fire times handled, started and
     * completed, written by the acquire and release scripts.
     *
     * @param job the job
     * @return its run record key
     */
    public String runRecord(JobId job) {
        return jobBase(job) + ":record";
    }

    /**
     * Returns its list of recent fire times.
     *
     * @param job the job
     * @return its list of recent fire times
     */
    public String history(JobId job) {
        return jobBase(job) + ":history";
    }

    /**
     * Returns the hash of schedules the nodes published for a job (field = node id, value =
     * {@code <published-at millis>|<schedule>}).
     *
     * @param job the job
     * @return its schedules hash
     */
    public String schedules(JobId job) {
        return jobBase(job) + ":schedules";
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
