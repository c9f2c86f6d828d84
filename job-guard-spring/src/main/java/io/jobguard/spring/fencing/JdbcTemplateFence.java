package io.jobguard.spring.fencing;

import io.jobguard.RunContext;
import io.jobguard.fencing.JdbcFence;
import io.jobguard.fencing.StaleFencingTokenException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.Objects;

/**
 * {@link JdbcFence} on a {@link JdbcTemplate}: advances a resource's fence on the template's connection, which
 * inside a Spring transaction is the transaction's own, so the fence and the writes commit together or not at
 * all. Call it in the transaction, before or after the writes it guards; a stale run is refused with
 * {@link StaleFencingTokenException} and its transaction rolls back.
 */
public final class JdbcTemplateFence {

    private final JdbcTemplate jdbc;
    private final JdbcFence fence;

    /**
     * A fence on the default table {@value JdbcFence#DEFAULT_TABLE}.
     *
     * @param jdbc the template of the data source the writes go to
     */
    public JdbcTemplateFence(JdbcTemplate jdbc) {
        this(jdbc, JdbcFence.create());
    }

    /**
     * A fence on a table of one's own.
     *
     * @param jdbc  the template
     * @param fence the fence
     */
    public JdbcTemplateFence(JdbcTemplate jdbc, JdbcFence fence) {
        this.jdbc = Objects.requireNonNull(jdbc, "jdbc");
        this.fence = Objects.requireNonNull(fence, "fence");
    }

    /**
     * Advances {@code resource} to the fencing token of the guarded run on this thread.
     *
     * @param resource what the writes touch
     * @throws StaleFencingTokenException if a newer run has written to the resource
     * @throws IllegalStateException      if this thread runs no guarded run
     */
    public void advance(String resource) {
        RunContext run = RunContext.current().orElseThrow(() -> new IllegalStateException(
                "JdbcTemplateFence.advance(resource) needs a guarded run on this thread"));
        advance(resource, run.fencingToken());
    }

    /**
     * Advances {@code resource} to {@code token}.
     *
     * @param resource what the writes touch
     * @param token    the writer's fencing token
     * @throws StaleFencingTokenException if a higher token has written to the resource
     */
    public void advance(String resource, long token) {
        jdbc.execute((ConnectionCallback<Void>) connection -> {
            fence.advance(connection, resource, token);
            return null;
        });
    }
}
