package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Optional store capability: the cluster-wide live run lease of a job and its recent fire times, for
 * operators (actuator, {@code JobGuard#currentLease}, {@code JobGuard#recentFires}). A store offers it
 * only when it sees every node's leases; asked through {@link LeaseStore#capability(Class)}.
 */
public interface RunHistory {

    /**
     * The live run lease of a job, cluster-wide.
     *
     * @param job the job
     * @return the lease, or empty if none is held
     */
    Optional<LeaseRecord> currentRunLease(JobId job);

    /**
     * The most recent fire times taken for a job, newest first.
     *
     * @param job the job
     * @param max the most entries to return
     * @return the entries
     */
    List<LeaseRecord> recentFires(JobId job, int max);

    /**
     * The job's recent fire times with their outcomes, newest decision first: the runs with the outcome and
     * duration {@link OutcomeRecording#releaseRunAsync(RunLeaseRequest, Duration, RunEnd)} recorded,
     * and the fire times decided without a run that {@link OutcomeRecording#recordOutcome} recorded. By default the
     * {@link #recentFires} without outcome or duration (both null), for a store that keeps no outcomes.
     *
     * @param job the job
     * @param max at most this many
     * @return the entries
     */
    default List<FireEntry> fireHistory(JobId job, int max) {
        return recentFires(job, max).stream().map(r -> new FireEntry(r.nominalFireTime(), r.describeHolder(), null,
                null, r.acquiredAt(), r.fencingToken())).toList();
    }

    /**
     * One page of a job's history that matches a query, newest recorded first ({@link #fireHistory}'s order). The
     * cursor of the page before continues after its last entry even while new entries are recorded: a page never
     * repeats an entry of an earlier page of the same walk, and entries recorded after the first page are not in
     * later ones.
     *
     * @param job      the job
     * @param query    which entries
     * @param cursor   {@link Page#next()} of the page before, or null for the first page
     * @param pageSize at most this many entries, 1 or more
     * @return the page
     * @throws IllegalArgumentException if the cursor is not one this store returned
     */
    default Page historyPage(JobId job, Query query, String cursor, int pageSize) {
        int skip = 0;
        if (cursor != null) {
            try {
                skip = Integer.parseInt(cursor);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("job-guard: not a history cursor: " + cursor);
            }
        }
        List<FireEntry> matching = fireHistory(job, Integer.MAX_VALUE).stream().filter(query::matches).toList();
        int end = Math.min(matching.size(), skip + Math.max(1, pageSize));
        List<FireEntry> page = skip >= matching.size() ? List.of() : matching.subList(skip, end);
        return new Page(page, end < matching.size() ? Integer.toString(end) : null);
    }

    /**
     * Hands each entry of the job's history that matches the query to the sink, newest recorded first, until the
     * history ends or the sink answers {@code false}. The Redis store reads the history in chunks, so the memory used
     * does not grow with the history's length.
     *
     * @param job   the job
     * @param query which entries
     * @param sink  takes each entry; {@code false} stops the walk
     */
    default void exportHistory(JobId job, Query query, Predicate<FireEntry> sink) {
        for (FireEntry entry : fireHistory(job, Integer.MAX_VALUE)) {
            if (query.matches(entry) && !sink.test(entry)) {
                return;
            }
        }
    }

    /**
     * Which entries of a job's history to read: each part that is set must match.
     *
     * @param from     the earliest fire time (inclusive), or null
     * @param to       the fire time the entries are before (exclusive), or null
     * @param outcomes the outcomes (for example {@code FAILED}), empty for all
     * @param node     the node that ran or decided the fire time, or null for all
     */
    record Query(Instant from, Instant to, Set<String> outcomes, String node) {

        /** Every entry. */
        public static final Query ALL = new Query(null, null, Set.of(), null);

        /**
         * Copies the outcomes; a blank node matches all.
         *
         * @throws IllegalArgumentException if {@code from} is not before {@code to}
         */
        public Query {
            outcomes = outcomes == null ? Set.of() : Set.copyOf(outcomes);
            node = node == null || node.isBlank() ? null : node;
            if (from != null && to != null && !from.isBefore(to)) {
                throw new IllegalArgumentException("job-guard: history query from " + from + " is not before to " + to);
            }
        }

        /**
         * Whether an entry matches.
         *
         * @param entry the entry
         * @return {@code true} when each part that is set matches
         */
        public boolean matches(FireEntry entry) {
            Instant fireTime = entry.nominalFireTime();
            return (from == null || !fireTime.isBefore(from)) && (to == null || fireTime.isBefore(to))
                    && (outcomes.isEmpty() || outcomes.contains(entry.outcome()))
                    && (node == null || node.equals(entry.node()));
        }
    }

    /**
     * One page of history entries.
     *
     * @param entries the entries, newest recorded first
     * @param next    the cursor of the next page, or null when this page is the last
     */
    record Page(List<FireEntry> entries, String next) {

        /** Copies the entries. */
        public Page {
            entries = List.copyOf(new ArrayList<>(Objects.requireNonNull(entries, "entries")));
        }
    }

    /**
     * One recorded fire time.
     *
     * @param nominalFireTime the fire time
     * @param node            the node that ran or decided it
     * @param outcome         how it ended; {@code RUNNING} while the run holds its lease (or when its
     *                        node died before releasing), {@code UNKNOWN} for an entry written without
     *                        an outcome, null from a store that keeps no outcomes
     * @param duration        how long the run took (null when nothing ran, it has not ended or the store keeps
     *                        no durations)
     * @param at              when it was taken (a run) or decided (no run), by the store's clock
     * @param fencingToken    the run's fencing token, -1 when nothing ran
     * @param attempt         the fire time's attempt this entry records, from 1 (1 when nothing ran)
     * @param failureClass    for a run that threw, the exception's class name; null otherwise
     * @param failureMessage  for a run that threw, the first line of its message (bounded, {@link RunEnd}); null
     *                        otherwise
     */
    record FireEntry(Instant nominalFireTime, String node, String outcome, Duration duration, Instant at,
                     long fencingToken, int attempt, String failureClass, String failureMessage) {

        /**
         * An entry without failure details.
         *
         * @param nominalFireTime the fire time
         * @param node            the node that ran or decided it
         * @param outcome         how it ended
         * @param duration        how long the run took, or null
         * @param at              when it was taken or decided, by the store's clock
         * @param fencingToken    the run's fencing token, -1 when nothing ran
         * @param attempt         the fire time's attempt, from 1
         */
        public FireEntry(Instant nominalFireTime, String node, String outcome, Duration duration, Instant at,
                         long fencingToken, int attempt) {
            this(nominalFireTime, node, outcome, duration, at, fencingToken, attempt, null, null);
        }

        /**
         * An entry of a first attempt, or of a fire time decided without a run.
         *
         * @param nominalFireTime the fire time
         * @param node            the node that ran or decided it
         * @param outcome         how it ended
         * @param duration        how long the run took, or null
         * @param at              when it was taken or decided, by the store's clock
         * @param fencingToken    the run's fencing token, -1 when nothing ran
         */
        public FireEntry(Instant nominalFireTime, String node, String outcome, Duration duration, Instant at,
                         long fencingToken) {
            this(nominalFireTime, node, outcome, duration, at, fencingToken, 1);
        }

        /**
         * When the run started: the lease's grant, by the store's clock.
         *
         * @return the start, or null for a fire time decided without a run
         */
        public Instant start() {
            return fencingToken < 0 ? null : at;
        }

        /**
         * When the run ended: its start plus its duration.
         *
         * @return the end, or null when nothing ran or the run has not ended
         */
        public Instant end() {
            return start() == null || duration == null ? null : at.plus(duration);
        }
    }
}
