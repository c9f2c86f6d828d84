package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.store.HistoryFormat;
import io.jobguard.store.RunHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.InputStreamResource;
import org.springframework.util.MimeType;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The endpoint's run history reads: parses the filters, answers a page as JSON or streams an export
 * ({@link JobGuard#exportHistory(String, RunHistory.Query, HistoryFormat)}: read from the store a page at a time as the
 * response is written, so the response's size does not grow the heap). A bad filter is HTTP 400 naming it.
 */
final class JobHistoryQueries {

    private static final Logger log = LoggerFactory.getLogger(JobHistoryQueries.class);
    /** The page size when the request names none. */
    static final int DEFAULT_LIMIT = 50;
    /** The largest page. */
    static final int MAX_LIMIT = 1_000;

    private final JobGuard guard;

    JobHistoryQueries(JobGuard guard) {
        this.guard = guard;
    }

    /** The request's filters, as given. */
    record Filters(String from, String to, String outcome, String node) {
    }

    WebEndpointResponse<Object> read(String job, String history, String format, Filters filters, String cursor,
                                     Integer limit) {
        if (!"history".equals(history)) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        RunHistory.Query query;
        try {
            query = query(filters);
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
        String kind = format == null ? "" : format.toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "json" -> page(job, query, cursor, limit);
            case "csv" -> export(job, query, HistoryFormat.CSV);
            case "ndjson" -> export(job, query, HistoryFormat.NDJSON);
            default -> badRequest("format must be json, csv or ndjson, got '" + format + "'");
        };
    }

    private WebEndpointResponse<Object> page(String job, RunHistory.Query query, String cursor, Integer limit) {
        int size = limit == null ? DEFAULT_LIMIT : limit;
        if (size < 1 || size > MAX_LIMIT) {
            return badRequest("limit must be 1 to " + MAX_LIMIT + ", got " + size);
        }
        RunHistory.Page page;
        try {
            page = guard.history(job, query, cursor == null || cursor.isBlank() ? null : cursor, size);
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        } catch (UnsupportedOperationException e) {
            return new WebEndpointResponse<>(Map.of("message", e.getMessage()), WebEndpointResponse.STATUS_NOT_FOUND);
        } catch (RuntimeException e) {
            log.warn("job-guard: could not read the history of job '{}': {}", job, e.toString());
            return new WebEndpointResponse<>(Map.of("message", "job-guard could not read the history: " + e.getMessage()),
                    503);
        }
        return new WebEndpointResponse<>(new JobGuardEndpoint.HistoryPage(job, page.entries().stream()
                .map(JobHistoryQueries::entry).toList(), page.next()), WebEndpointResponse.STATUS_OK,
                MimeType.valueOf("application/json"));
    }

    private WebEndpointResponse<Object> export(String job, RunHistory.Query query, HistoryFormat format) {
        return new WebEndpointResponse<>(new InputStreamResource(guard.exportHistory(job, query, format)),
                WebEndpointResponse.STATUS_OK, MimeType.valueOf(format.mediaType() + ";charset=UTF-8"));
    }

    static JobGuardEndpoint.HistoryEntry entry(RunHistory.FireEntry e) {
        return new JobGuardEndpoint.HistoryEntry(e.nominalFireTime(), e.outcome(), e.attempt(), e.node(), e.start(),
                e.end(), e.duration() == null ? null : e.duration().toMillis(),
                e.fencingToken() < 0 ? null : e.fencingToken(), e.failureClass(), e.failureMessage());
    }

    static RunHistory.Query query(Filters filters) {
        Set<String> outcomes = filters.outcome() == null ? Set.of() : Arrays.stream(filters.outcome().split(","))
                .map(String::trim).filter(o -> !o.isEmpty()).map(o -> o.toUpperCase(Locale.ROOT))
                .collect(Collectors.toSet());
        return new RunHistory.Query(instant("from", filters.from()), instant("to", filters.to()), outcomes,
                filters.node());
    }

    /** An ISO-8601 instant ({@code 2026-12-01T02:00:00Z}) or a date, meaning its start in UTC. */
    private static Instant instant(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO-8601 instant (2026-12-01T02:00:00Z) or date"
                    + " (2026-12-01), got '" + text + "'");
        }
    }

    private static WebEndpointResponse<Object> badRequest(String message) {
        return new WebEndpointResponse<>(Map.of("message", message), WebEndpointResponse.STATUS_BAD_REQUEST,
                MimeType.valueOf("application/json"));
    }
}
