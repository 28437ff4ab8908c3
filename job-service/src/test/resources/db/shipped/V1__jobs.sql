-- job-service owns schema "jobs" (Flyway sets search_path to it).

-- The job aggregate. Lists never read "spec" (the only wide column), so list rows stay narrow.
CREATE TABLE job (
    id                   varchar(40)  PRIMARY KEY,
    tenant               varchar(64)  NOT NULL,
    owner                varchar(128) NOT NULL,
    project              varchar(128) NOT NULL,
    name                 varchar(128) NOT NULL,
    cluster              varchar(64)  NOT NULL,
    region               varchar(64)  NOT NULL,
    namespace            varchar(63),
    queue                varchar(128) NOT NULL,
    priority             varchar(8)   NOT NULL,
    status               varchar(24)  NOT NULL,
    reason               varchar(256),
    message              text,
    failure_reason       varchar(256),
    failure_diagnosis_id varchar(64),
    exit_code            integer,
    gpu_type             varchar(64),
    gpus_per_replica     integer      NOT NULL DEFAULT 0,
    replicas             integer      NOT NULL DEFAULT 1,
    visibility           varchar(8)   NOT NULL DEFAULT 'PRIVATE',
    tags                 text[]       NOT NULL DEFAULT '{}',
    shares               text[]       NOT NULL DEFAULT '{}',
    spec                 jsonb        NOT NULL,
    supports_restart     boolean      NOT NULL DEFAULT false,
    auto_fault_handling  boolean      NOT NULL DEFAULT false,
    max_retries          integer      NOT NULL DEFAULT 0,
    root_id              varchar(40)  NOT NULL,
    attempt              integer      NOT NULL DEFAULT 1,
    attempt_cause        varchar(16)  NOT NULL DEFAULT 'INITIAL',
    diagnosis_id         varchar(64),
    previous_id          varchar(40),
    cloned_from          varchar(40),
    retry_count          integer      NOT NULL DEFAULT 0,
    idempotency_key      varchar(128),
    submitted_at         timestamptz  NOT NULL,
    first_event_at       timestamptz,
    started_at           timestamptz,
    finished_at          timestamptz,
    last_sequence        bigint       NOT NULL DEFAULT 0,
    version              bigint       NOT NULL DEFAULT 1,
    updated_at           timestamptz  NOT NULL DEFAULT now()
);

-- Indexes, one per list shape (every query starts with tenant = ?; keyset paging is
-- "(sort, id) < (?, ?) ORDER BY sort DESC, id DESC LIMIT n", which a b-tree ending in (sort, id) serves
-- by reading exactly n rows, however deep the page and however many jobs there are):
--  * scope=mine, sorted by submission time (the default view), also with status/name/tag filters:
--    a user has at most a few thousand jobs, so the filters are checked on the owner's rows in order.
CREATE INDEX job_mine ON job (tenant, owner, submitted_at, id);
--  * scope=all (admins), sorted by submission time.
CREATE INDEX job_tenant ON job (tenant, submitted_at, id);
--  * scope=all with a status filter (rare statuses would otherwise scan many rows), and the status gauges.
CREATE INDEX job_tenant_status ON job (tenant, status, submitted_at, id);
--  * scope=project: PROJECT-visible jobs of the caller's project groups.
CREATE INDEX job_project ON job (tenant, project, submitted_at, id) WHERE visibility = 'PROJECT';
--  * scope=shared ("shares @> {me}") and tag AND filters ("tags @> {a,b}") are array containment: GIN.
--    (GIN's pending list makes searches slow until autovacuum merges it; bulk loads should VACUUM after.)
CREATE INDEX job_shares ON job USING gin (shares);
CREATE INDEX job_tags ON job USING gin (tags);
--  * the fault-tolerance chain.
CREATE INDEX job_chain ON job (root_id, attempt);
--  * the jobs-by-status gauges count live jobs only: a small partial index.
CREATE INDEX job_active ON job (status, cluster, queue) WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'STOPPED');
--  * the STOPPING sweeper looks at few rows.
CREATE INDEX job_stopping ON job (updated_at) WHERE status = 'STOPPING';
-- A retried submit with the same Idempotency-Key finds the job it made.
CREATE UNIQUE INDEX job_idempotency ON job (tenant, owner, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Name substring search ("lower(name) LIKE '%x%'") uses a trigram index when pg_trgm can be had; without it
-- the search still works, only scope=all name searches read more rows.
DO $$
DECLARE ext_schema text;
BEGIN
    BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm not available: name search without trigram index';
    END;
    SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm';
    IF ext_schema IS NOT NULL THEN
        EXECUTE format('CREATE INDEX job_name_trgm ON job USING gin (lower(name) %I.gin_trgm_ops)', ext_schema);
    END IF;
END $$;

-- Every status change: the timeline.
CREATE TABLE job_transition (
    id        bigserial    PRIMARY KEY,
    job_id    varchar(40)  NOT NULL REFERENCES job (id) ON DELETE CASCADE,
    status    varchar(24)  NOT NULL,
    reason    varchar(256),
    message   text,
    exit_code integer,
    at        timestamptz  NOT NULL,
    source    varchar(8)   NOT NULL,
    sequence  bigint
);
CREATE INDEX job_transition_job ON job_transition (job_id, at, id);

-- The last known state of each pod. Pods are paged by (job_id, name), the primary key.
CREATE TABLE job_pod (
    job_id     varchar(40)  NOT NULL REFERENCES job (id) ON DELETE CASCADE,
    name       varchar(253) NOT NULL,
    namespace  varchar(63),
    node       varchar(253),
    phase      varchar(16),
    reason     varchar(256),
    containers jsonb        NOT NULL DEFAULT '[]',
    updated_at timestamptz  NOT NULL,
    PRIMARY KEY (job_id, name)
);

-- Commands from jobmon.job.commands: the primary key makes each command id run at most once; the row keeps
-- what was done or why not. No foreign key: a command for an unknown job is recorded too.
CREATE TABLE job_command (
    command_id    varchar(128) PRIMARY KEY,
    job_id        varchar(40)  NOT NULL,
    kind          varchar(16)  NOT NULL,
    diagnosis_ids text[]       NOT NULL DEFAULT '{}',
    reason        text,
    outcome       varchar(16)  NOT NULL,
    detail        text,
    new_job_id    varchar(40),
    received_at   timestamptz  NOT NULL
);
CREATE INDEX job_command_job ON job_command (job_id, received_at);

-- Diagnoses already applied (a redelivered one changes nothing).
CREATE TABLE diagnosis_applied (
    diagnosis_id varchar(64) PRIMARY KEY,
    job_id       varchar(40) NOT NULL,
    applied_at   timestamptz NOT NULL DEFAULT now()
);

-- Transactional outbox for jobmon.job.changes: written in the transaction of the change it describes, one row
-- per job holding its latest unpublished snapshot (the topic is compacted: only the latest matters). The relay
-- claims rows (FOR UPDATE SKIP LOCKED, so several instances share the work), publishes, then deletes a row only
-- if its version is still the one it published.
CREATE TABLE outbox (
    job_id        varchar(40) PRIMARY KEY,
    version       bigint      NOT NULL,
    payload       text        NOT NULL,
    changed_at    timestamptz NOT NULL,
    claimed_by    varchar(64),
    claimed_until timestamptz
);
CREATE INDEX outbox_changed ON outbox (changed_at);
