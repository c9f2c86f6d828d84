-- job-guard fence table for PostgreSQL: one row per fenced resource, holding the highest fencing token
-- that has written to it. Used by io.jobguard.fencing.JdbcFence.
CREATE TABLE IF NOT EXISTS jobguard_fence (
    resource VARCHAR(255) NOT NULL PRIMARY KEY,
    token    BIGINT       NOT NULL
);
