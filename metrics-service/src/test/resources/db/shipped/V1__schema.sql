-- metrics-service owns this schema; no other service reads it.
-- What other services tell us about jobs (from jobmon.job.changes): enough to apply the access rule locally.
CREATE TABLE job_access (
    job_id      TEXT PRIMARY KEY,
    tenant      TEXT NOT NULL,
    owner       TEXT NOT NULL,
    project     TEXT,
    visibility  TEXT NOT NULL DEFAULT 'PRIVATE',
    shares      TEXT[] NOT NULL DEFAULT '{}',
    version     BIGINT NOT NULL,
    deleted     BOOLEAN NOT NULL DEFAULT FALSE
);
