package io.jobguard.internal.redis;

import io.jobguard.internal.Names;
import io.jobguard.store.JobId;

import java.time.Instant;
import java.util.List;

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
     * The keys of one job in key layout 2 that are named by their kind alone (the fire-time marker also needs its fire
     * time). Lease, marker, cool-down and history have the same names and values as in layout 1; the job's state
     * (epoch, fencing counter, run record, pause flag) moved from four keys of its own into {@link #STATE}.
     */
    public enum JobKey {
        /** The job's run lease (string, Redis TTL). */
        RUN_LEASE("run"),
        /**
         * The job's state (hash, no TTL): epoch, fencing counter, pause flag and run record, read with one
         * {@code HMGET} and written with one {@code HSET} per granted firing ({@code run-acquire.lua} lists the fields).
         * The name carries the layout's version.
         */
        STATE("state-v2"),
        /** Set while a caller on some node waits for the lease's release: the release publishes only then. */
        WAITERS("waiters"),
        /** The job's fixed-delay cool-down. */
        COOLDOWN("cooldown"),
        /** The job's list of recent fire times, one entry per run written by its release. */
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
     * The keys of key layout 1 that layout 2 replaced by {@link JobKey#STATE}: read only to refuse a job still kept in
     * layout 1 and to migrate it ({@code layout-migrate.lua}).
     */
    public enum Layout1Key {
        /** The epoch (string, no TTL). */
        EPOCH("epoch"),
        /** The fencing counter (string). */
        FENCE("fence"),
        /** The run record (hash). */
        RECORD("record"),
        /** The pause flag (string). */
        PAUSED("paused");

        private final String suffix;

        Layout1Key(String suffix) {
            this.suffix = suffix;
        }

        /**
         * Returns the name's last segment.
         *
         * @return the suffix after the job's key base
         */
        public String suffix() {
            return suffix;
        }
    }

    /**
     * Returns one of a job's layout-1 keys.
     *
     * @param job  the job
     * @param kind which of them
     * @return the key
     */
    public String layout1(JobId job, Layout1Key kind) {
        return jobBase(job) + ":" + kind.suffix;
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
     * Returns {@code run-acquire.lua}'s KEYS, in its order: lease, the fire time's marker, state, cool-down, waiters,
     * and the layout-1 epoch, counter and record.
     *
     * @param job             the job
     * @param nominalFireTime the fire time asked for
     * @return the keys
     */
    public List<String> runAcquire(JobId job, Instant nominalFireTime) {
        return List.of(of(job, JobKey.RUN_LEASE), fireMarker(job, nominalFireTime), of(job, JobKey.STATE),
                of(job, JobKey.COOLDOWN), of(job, JobKey.WAITERS), layout1(job, Layout1Key.EPOCH),
                layout1(job, Layout1Key.FENCE), layout1(job, Layout1Key.RECORD), of(job, JobKey.HISTORY));
    }

    /**
     * Returns {@code run-release.lua}'s KEYS, in its order: lease, waiters, state, recent fire times, cool-down.
     *
     * @param job the job
     * @return the keys
     */
    public List<String> runRelease(JobId job) {
        return List.of(of(job, JobKey.RUN_LEASE), of(job, JobKey.WAITERS), of(job, JobKey.STATE),
                of(job, JobKey.HISTORY), of(job, JobKey.COOLDOWN));
    }

    /**
     * Returns the {@code SCAN} pattern matching one kind of layout-1 key of every job under this prefix.
     *
     * @param kind the kind
     * @return the pattern (glob characters of the prefix escaped)
     */
    public String layout1Pattern(Layout1Key kind) {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + ":{*}:" + kind.suffix;
    }

    /**
     * Returns the keys {@code layout-migrate.lua} takes for the job one layout-1 key belongs to: its state hash, then
     * its layout-1 epoch, counter, record and pause flag.
     *
     * @param layout1Key a key that {@link #layout1Pattern} matched
     * @param kind       the kind that pattern was for
     * @return the five keys, in that order
     */
    public List<String> layout1Migration(String layout1Key, Layout1Key kind) {
        String base = layout1Key.substring(0, layout1Key.length() - kind.suffix.length() - 1);
        return List.of(base + ":" + JobKey.STATE.suffix, base + ":" + Layout1Key.EPOCH.suffix,
                base + ":" + Layout1Key.FENCE.suffix, base + ":" + Layout1Key.RECORD.suffix,
                base + ":" + Layout1Key.PAUSED.suffix);
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
