-- Diagnosis tasks and their results, feedback, the job snapshots automatic diagnosis needs, and the
-- automatic fault actions. All state lives here so that any number of instances can share the work.

-- The latest jobmon.job.changes snapshot of every job: the job facts of an automatic diagnosis, and which
-- running jobs opted in to automatic fault handling (next_check_at says when each is diagnosed next).
CREATE TABLE job_snapshot (
    job_id              TEXT PRIMARY KEY,
    version             BIGINT NOT NULL,
    status              TEXT,
    auto_fault_handling BOOLEAN NOT NULL DEFAULT FALSE,
    deleted             BOOLEAN NOT NULL DEFAULT FALSE,
    snapshot            JSONB NOT NULL,
    next_check_at       TIMESTAMPTZ,
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX job_snapshot_due ON job_snapshot (next_check_at) WHERE next_check_at IS NOT NULL;

-- One diagnosis: a task (PENDING, RUNNING, DONE, FAILED) and, once DONE, its result.
CREATE TABLE diagnosis (
    id              TEXT PRIMARY KEY,
    job_id          TEXT NOT NULL,
    trigger         TEXT NOT NULL,              -- USER, JOB_FAILED, PERIODIC
    trigger_key     TEXT UNIQUE,                -- idempotency of automatic ones, e.g. status:<job>:<sequence>
    status          TEXT NOT NULL,
    requested_by    TEXT,
    window_from     TIMESTAMPTZ NOT NULL,
    window_to       TIMESTAMPTZ NOT NULL,
    metrics         TEXT[] NOT NULL DEFAULT '{}',
    hint            TEXT,
    locale          TEXT NOT NULL DEFAULT 'en',
    seed            JSONB,                      -- evidence known locally when it was asked (status record)
    created_at      TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    not_before      TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at      TIMESTAMPTZ,
    finished_at     TIMESTAMPTZ,
    attempts        INT NOT NULL DEFAULT 0,
    claimed_by      TEXT,
    claimed_until   TIMESTAMPTZ,
    category        TEXT,
    action          TEXT,
    confidence      DOUBLE PRECISION,
    result          JSONB,
    missing_sources TEXT[] NOT NULL DEFAULT '{}',
    source_errors   JSONB,
    error           TEXT,
    published_at    TIMESTAMPTZ                 -- when it reached jobmon.diagnoses (an outbox flag)
);
CREATE INDEX diagnosis_by_job ON diagnosis (job_id, created_at DESC, id DESC);
CREATE INDEX diagnosis_open ON diagnosis (not_before) WHERE status IN ('PENDING', 'RUNNING');
CREATE INDEX diagnosis_unpublished ON diagnosis (finished_at) WHERE status = 'DONE' AND published_at IS NULL;

-- What users said about a diagnosis, kept to improve the pattern catalogue; one verdict per user.
CREATE TABLE diagnosis_feedback (
    diagnosis_id    TEXT NOT NULL REFERENCES diagnosis (id) ON DELETE CASCADE,
    author          TEXT NOT NULL,
    verdict         TEXT NOT NULL,
    comment         TEXT,
    category        TEXT,                       -- the diagnosis' category, so the catalogue team can group
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (diagnosis_id, author)
);

-- Automatic fault handling: two consecutive diagnoses agreed on RESTART or TERMINATE. A diagnosis takes part in
-- at most one decision, so a command is never asked twice for the same pair.
CREATE TABLE fault_action (
    id                   TEXT PRIMARY KEY,      -- also the JobCommand's commandId
    job_id               TEXT NOT NULL,
    first_diagnosis_id   TEXT NOT NULL UNIQUE REFERENCES diagnosis (id),
    second_diagnosis_id  TEXT NOT NULL UNIQUE REFERENCES diagnosis (id),
    command              TEXT NOT NULL,         -- RESTART, TERMINATE
    outcome              TEXT NOT NULL,         -- COMMANDED, REFUSED, SKIPPED
    reason               TEXT NOT NULL,
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    published_at         TIMESTAMPTZ
);
CREATE INDEX fault_action_by_job ON fault_action (job_id, created_at DESC);
CREATE INDEX fault_action_unpublished ON fault_action (created_at) WHERE outcome = 'COMMANDED' AND published_at IS NULL;
