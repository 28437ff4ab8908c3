-- The event store, pod states and derived job states of event-ingest-service.

-- consumer_offset is contracts' table (messaging.OffsetRepository), created by its migration V0_2
-- (db/shared/consumer-offset; docs/adr/0014-shared-tables-owned-by-contracts.md).

-- The latest state of every pod of a job (deleted ones kept with their last state).
CREATE TABLE pod_state (
    cluster          TEXT NOT NULL,
    namespace        TEXT NOT NULL,
    name             TEXT NOT NULL,
    uid              TEXT NOT NULL,
    job_id           TEXT NOT NULL,
    k8s_job          TEXT,
    resource_version BIGINT NOT NULL,
    deleted          BOOLEAN NOT NULL DEFAULT FALSE,
    view             JSONB NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, namespace, name)
);
CREATE INDEX pod_state_job ON pod_state (job_id);
CREATE INDEX pod_state_k8s_job ON pod_state (cluster, namespace, k8s_job);

-- The status derived for each job, the signal events it was derived from, and the last published sequence.
CREATE TABLE job_state (
    job_id         TEXT PRIMARY KEY,
    cluster        TEXT,
    status         TEXT,
    reason         TEXT,
    message        TEXT,
    exit_code      INT,
    sequence       BIGINT NOT NULL DEFAULT 0,
    stop_requested BOOLEAN NOT NULL DEFAULT FALSE,
    signals        JSONB NOT NULL DEFAULT '{}',
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Events, partitioned by the day the event object was created (stable across its updates): retention is a
-- partition drop. Partitions are created ahead by the daily maintenance and on demand by the consumer.
CREATE TABLE event (
    cluster          TEXT NOT NULL,
    uid              TEXT NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    job_id           TEXT NOT NULL,
    namespace        TEXT,
    name             TEXT,
    object_kind      TEXT,
    object_name      TEXT,
    field_path       TEXT,
    type             TEXT,
    reason           TEXT,
    message          TEXT,
    count            INT NOT NULL,
    first_time       TIMESTAMPTZ,
    last_time        TIMESTAMPTZ NOT NULL,
    source           TEXT,
    resource_version BIGINT NOT NULL,
    PRIMARY KEY (cluster, uid, created_at)
) PARTITION BY RANGE (created_at);
CREATE INDEX event_job_time ON event (job_id, last_time, uid);

-- The per-job event quota: per job, object and reason, the first event objects and the latest are kept,
-- the others counted here.
CREATE TABLE event_quota (
    job_id              TEXT NOT NULL,
    object_key          TEXT NOT NULL,
    reason              TEXT NOT NULL,
    first_uids          TEXT[] NOT NULL,
    latest_uid          TEXT,
    latest_created      TIMESTAMPTZ,
    latest_time         TIMESTAMPTZ,
    latest_count        INT NOT NULL DEFAULT 0,
    omitted_events      INT NOT NULL DEFAULT 0,
    omitted_occurrences BIGINT NOT NULL DEFAULT 0,
    recent              JSONB NOT NULL DEFAULT '{}',
    PRIMARY KEY (job_id, object_key, reason)
);
CREATE INDEX event_quota_latest ON event_quota (job_id, latest_uid);

-- Transitions committed with their cause, published to jobmon.job.status after the commit (transactional outbox).
CREATE TABLE status_outbox (
    id         BIGSERIAL PRIMARY KEY,
    job_id     TEXT NOT NULL,
    payload    TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
