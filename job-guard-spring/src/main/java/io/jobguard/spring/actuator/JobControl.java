package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.RetryByHand;
import io.jobguard.store.RunHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.InvocationTargetException;
import java.security.Principal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The write side of the {@code jobguard} endpoint: {@code pause} and {@code resume} a job
 * cluster-wide (a flag the acquire script reads in the same call that takes the lease, so a paused
 * firing on any node is skipped with {@link RunOutcome#PAUSED}) and {@code run-now} (one extra
 * firing, run on the node that receives the request under its own fire time, so at most once in the
 * cluster; its outcome is returned) and {@code retry} (one more attempt of the job's latest fire time that failed for
 * good, left pending cluster-wide by {@link JobGuard#retryByHand} and run at once by this node when it runs the job's
 * {@code @Scheduled} method, else by the nodes' passes). Refused unless {@value #ENABLED_PROPERTY} is true, and, when
 * {@value #ROLE_PROPERTY} is set, unless the caller has that role. Every request is logged at WARN
 * with this node and the principal.
 */
final class JobControl {

    static final String ENABLED_PROPERTY = "jobguard.actuator.write-enabled";
    static final String ROLE_PROPERTY = "jobguard.actuator.write-role";

    /** HTTP 409: a retry the store refused, the job's state being what it is (Boot names no constant for it). */
    private static final int CONFLICT = 409;

    private static final Logger log = LoggerFactory.getLogger(JobControl.class);

    private final JobGuard guard;
    private final GuardedJobRegistry registry;
    private final BeanFactory beans;
    private final boolean enabled;
    private final String role;
    private final Predicate<String> contributed;

    JobControl(JobGuard guard, GuardedJobRegistry registry, BeanFactory beans, boolean enabled, String role,
               Predicate<String> contributed) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.beans = beans;
        this.enabled = enabled;
        this.role = role == null || role.isBlank() ? null : role.trim();
        this.contributed = Objects.requireNonNull(contributed, "contributed");
    }

    /** A refusal naming what to set when writes are off; null when they are allowed. */
    static WebEndpointResponse<JobGuardEndpoint.Control> disabled(String job, String action) {
        return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, action, false, null, null,
                action + " is disabled; set " + ENABLED_PROPERTY + "=true (and expose the endpoint with "
                        + "management.endpoint.jobguard.access=unrestricted)"), 403);
    }

    /**
     * A refusal naming the missing role, or null when the caller may write (no role configured, or
     * the caller has it).
     */
    <T> WebEndpointResponse<T> lacksRole(SecurityContext security, T body) {
        if (role == null || (security != null && security.isUserInRole(role))) {
            return null;
        }
        return new WebEndpointResponse<>(body, 403);
    }

    /**
     * What a caller may do through the write operations, for the dashboard's buttons: nothing unless Boot maps
     * them ({@code writable}: endpoint access unrestricted); then each write whose switch is on, if the caller has
     * the write role (when one is set). The same checks as {@link #apply} and the endpoint's force-release.
     */
    static JobGuardEndpoint.Writes writes(JobControl control, boolean writable, boolean forceReleaseEnabled,
                                         SecurityContext security) {
        if (!writable) {
            return new JobGuardEndpoint.Writes(false, false);
        }
        boolean roleOk = control == null || control.lacksRole(security, Boolean.TRUE) == null;
        return new JobGuardEndpoint.Writes(control != null && control.enabled && roleOk, forceReleaseEnabled && roleOk);
    }

    String role() {
        return role;
    }

    boolean enabled() {
        return enabled;
    }

    WebEndpointResponse<JobGuardEndpoint.Control> apply(String job, String action, String fireTime,
                                                        SecurityContext security) {
        String verb = action == null ? "" : action.trim().toLowerCase(Locale.ROOT);
        String who = who(security);
        String node = guard.config().nodeId();
        if (!enabled) {
            log.warn("job-guard: {} of job '{}' requested by {} on node {} REFUSED ({}=false)", verb, job, who, node,
                    ENABLED_PROPERTY);
            return disabled(job, verb);
        }
        WebEndpointResponse<JobGuardEndpoint.Control> noRole = lacksRole(security, new JobGuardEndpoint.Control(job,
                verb, false, null, null, "the caller lacks the role " + role + " (" + ROLE_PROPERTY + ")"));
        if (noRole != null) {
            log.warn("job-guard: {} of job '{}' requested by {} on node {} REFUSED (lacks role {})", verb, job, who,
                    node, role);
            return noRole;
        }
        if (!verb.equals("pause") && !verb.equals("resume") && !verb.equals("run-now") && !verb.equals("retry")) {
            return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, false, null, null,
                    "unknown action '" + action + "': use pause, resume, run-now or retry"),
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        GuardedJob guarded = registry.forName(job).orElse(null);
        if (guarded == null && !contributed.test(job)) {
            return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, false, null, null,
                    "no guarded job of that name on this node"), WebEndpointResponse.STATUS_NOT_FOUND);
        }
        Instant retried = null;
        if (verb.equals("retry")) {
            retried = fireTime(fireTime);
            if (retried == null) {
                String got = shown(fireTime);
                log.warn("job-guard: retry of job '{}' requested by {} on node {} REFUSED (fireTime '{}')", job, who,
                        node, got);
                return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, false, null, null,
                        "retry needs fireTime, the fire time to run again: an ISO-8601 instant or epoch millis (got '"
                                + got + "')"), WebEndpointResponse.STATUS_BAD_REQUEST);
            }
        }
        log.warn("job-guard: {} of job '{}' requested by {} on node {}{}", verb, job, who, node,
                retried == null ? "" : " for fire time " + retried);
        try {
            return retried != null ? retry(job, retried, who, guarded) : perform(job, verb, who, guarded);
        } catch (UnsupportedOperationException e) {
            return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, false, null, null,
                    e.getMessage()), WebEndpointResponse.STATUS_BAD_REQUEST);
        } catch (LeaseStoreException e) {
            log.warn("job-guard: {} of job '{}' on node {} failed: {}", verb, job, node, e.getMessage());
            return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, false, null, null,
                    "the lease store could not be reached: " + e.getMessage()),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }

    private WebEndpointResponse<JobGuardEndpoint.Control> perform(String job, String verb, String who,
                                                                  GuardedJob guarded) {
        switch (verb) {
            case "pause": {
                boolean changed = guard.pause(job, who);
                return ok(job, verb, changed, null, null, changed ? "paused cluster-wide" : "was paused already");
            }
            case "resume": {
                boolean changed = guard.resume(job);
                return ok(job, verb, changed, null, null, changed ? "resumed cluster-wide" : "was not paused");
            }
            default:
                if (guarded == null) {
                    return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, false, null, null,
                            "run-now is supported for @Scheduled jobs only (trigger a Quartz job through Quartz)"),
                            WebEndpointResponse.STATUS_BAD_REQUEST);
                }
                return runNow(guarded, verb);
        }
    }

    /**
     * Asks the store for one more attempt of {@code fireTime}; once it is pending, runs it here when this node runs the
     * job's {@code @Scheduled} method (its raw target, as run-now does, under the job's own options: the attempt is a
     * retry of the fire time, so the job's retry policy applies), and answers with its outcome as the job's history
     * records it. A job this node only lists (Quartz) is left to whichever node's pass calls
     * {@link JobGuard#runDueRetry} for it.
     */
    private WebEndpointResponse<JobGuardEndpoint.Control> retry(String job, Instant fireTime, String who,
                                                                GuardedJob guarded) {
        RetryByHand answer = guard.retryByHand(job, fireTime, who);
        if (!answer.scheduled()) {
            return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, "retry", false, fireTime,
                    answer.status().name(), refusal(answer.status())), CONFLICT);
        }
        String pending = "attempt " + answer.attempt() + " is pending cluster-wide, due now";
        if (guarded == null || beans == null || guarded.beanName() == null) {
            return ok(job, "retry", true, fireTime, answer.status().name(),
                    pending + "; this node does not run the job: the first node whose recovery pass looks"
                            + " (job-guard-quartz's, at least once a minute) runs it, unless the job's next fire time"
                            + " starts first and supersedes it");
        }
        Object bean = beans.getBean(guarded.beanName());
        Object target = AopProxyUtils.getSingletonTarget(bean);
        Object receiver = target != null ? target : bean;
        try {
            guard.runDueRetry(guarded.options(), () -> invoke(guarded, receiver));
        } catch (RuntimeException | Error e) {
            // the engine has recorded how the attempt ended; the history below tells it
            log.debug("job-guard: retry of job '{}' T={} threw {}", job, fireTime, e.toString());
        }
        String outcome = attemptOutcome(job, fireTime, answer.attempt());
        return outcome == null
                ? ok(job, "retry", true, fireTime, answer.status().name(), pending
                        + "; it did not run here (another node's pass took it, or a pass runs it soon)")
                : ok(job, "retry", true, fireTime, outcome, "attempt " + answer.attempt() + " ran on this node");
    }

    /** The outcome the job's history records for that attempt of the fire time, or null when none ran yet. */
    private String attemptOutcome(String job, Instant fireTime, int attempt) {
        return guard.store().capability(RunHistory.class)
                .flatMap(h -> h.fireHistory(new JobId(guard.config().namespace(), job), guard.config().historySize())
                        .stream().filter(e -> e.nominalFireTime().equals(fireTime) && e.attempt() == attempt
                                && e.fencingToken() >= 0)
                        .map(RunHistory.FireEntry::outcome).findFirst())
                .orElse(null);
    }

    private static String refusal(RetryByHand.Status status) {
        return switch (status) {
            case NOT_FAILED -> "the fire time did not fail for good: its run has not completed, or its newest outcome"
                    + " is not FAILED or RETRIES_EXHAUSTED";
            case NOT_LATEST -> "a later fire time of the job has started: only the latest started fire time runs again";
            case PENDING -> "an attempt of the fire time is pending already";
            case BUSY -> "a run of the job holds its lease";
            case PAUSED -> "the job is paused: resume it first";
            case UNKNOWN -> "the store has no run record of the job";
            case SCHEDULED -> "scheduled";
        };
    }

    /** A caller's text as logged and answered: one line, at most 64 characters. */
    private static String shown(String text) {
        String line = text == null ? "" : text.replaceAll("\\p{Cntrl}", "?");
        return line.length() <= 64 ? line : line.substring(0, 64) + "...";
    }

    /** An ISO-8601 instant (with Z or an offset) or epoch millis; null when blank or neither. */
    static Instant fireTime(String text) {
        String value = text == null ? "" : text.trim();
        if (value.matches("\\d{1,15}")) {
            return Instant.ofEpochMilli(Long.parseLong(value));
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Runs the method once, guarded for a fire time of its own: now on the job's clock, moved off
     * the schedule's grid by one millisecond if it falls on it (so it never takes a scheduled fire
     * time). The raw target is called, so the outcome comes back from the engine here.
     */
    private WebEndpointResponse<JobGuardEndpoint.Control> runNow(GuardedJob job, String verb) {
        String name = job.options().name();
        if (beans == null || job.beanName() == null) {
            return new WebEndpointResponse<>(new JobGuardEndpoint.Control(name, verb, false, null, null,
                    "the bean of this job is not known"), WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        Instant nominalFireTime = job.clock().instant().truncatedTo(ChronoUnit.MILLIS);
        if (nominalFireTime.equals(job.schedule().latestAtOrBefore(nominalFireTime))) {
            nominalFireTime = nominalFireTime.plusMillis(1);
        }
        Object bean = beans.getBean(job.beanName());
        Object target = AopProxyUtils.getSingletonTarget(bean);
        Object receiver = target != null ? target : bean;
        RunOutcome outcome;
        try {
            // an extra run off the grid, not a firing of the schedule: it recovers and retries nothing (admitted plainly)
            JobOptions extraRun = job.options().toBuilder().recovery(null).retry(null).build();
            outcome = guard.run(extraRun, nominalFireTime, () -> invoke(job, receiver));
        } catch (RuntimeException | Error e) {
            outcome = RunOutcome.FAILED;
        }
        return ok(name, verb, outcome.bodyStarted(), nominalFireTime, outcome.name(), "run once under its own fire time");
    }

    private static void invoke(GuardedJob job, Object receiver) {
        try {
            ReflectionUtils.makeAccessible(job.method());
            job.method().invoke(receiver);
        } catch (InvocationTargetException e) {
            ReflectionUtils.rethrowRuntimeException(e.getTargetException());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static WebEndpointResponse<JobGuardEndpoint.Control> ok(String job, String verb, boolean changed,
                                                                    Instant nominalFireTime, String outcome, String message) {
        return new WebEndpointResponse<>(new JobGuardEndpoint.Control(job, verb, changed, nominalFireTime, outcome, message),
                WebEndpointResponse.STATUS_OK);
    }

    static String who(SecurityContext security) {
        Principal principal = security == null ? null : security.getPrincipal();
        return principal == null ? "anonymous" : principal.getName();
    }
}
