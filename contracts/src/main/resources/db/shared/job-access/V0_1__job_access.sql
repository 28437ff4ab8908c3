-- contracts' job-access read model (io.jobmon.contracts.readmodel: JobAccessStore, JobChanges): what jobmon.job.changes
-- tells about a job, enough to apply the access rule locally. Every service that guards job data loads this location
-- (quarkus.flyway.locations); contracts owns it (docs/adr/0014-shared-tables-owned-by-contracts.md). IF NOT EXISTS:
-- a schema migrated before contracts owned the table has it already (applied out of order there, it changes nothing).
CREATE TABLE IF NOT EXISTS job_access (
    job_id      TEXT PRIMARY KEY,
    tenant      TEXT NOT NULL,
    owner       TEXT NOT NULL,
    project     TEXT,
    visibility  TEXT NOT NULL DEFAULT 'PRIVATE',
    shares      TEXT[] NOT NULL DEFAULT '{}',
    version     BIGINT NOT NULL,
    deleted     BOOLEAN NOT NULL DEFAULT FALSE
);
