-- The embedded series store (docs/adr/0003-metric-chunks.md): series identified once, samples in compressed
-- blocks, never a row per sample.

-- Kafka offsets whose effects are stored, per topic partition (written in the batch's transaction).
CREATE TABLE consumer_offset (
    topic           TEXT NOT NULL,
    kafka_partition INT NOT NULL,
    next_offset     BIGINT NOT NULL,
    PRIMARY KEY (topic, kafka_partition)
);

-- A series: metric name + sorted labels, identified once. Attribution labels are columns for the job queries.
CREATE TABLE series (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    series_key  TEXT NOT NULL UNIQUE,
    metric      TEXT NOT NULL,
    node        TEXT NOT NULL,
    labels      JSONB NOT NULL,
    counter     BOOLEAN NOT NULL,
    gpu         TEXT,
    pod         TEXT,
    namespace   TEXT,
    container   TEXT,
    cluster     TEXT,
    pool        TEXT,
    first_ms    BIGINT NOT NULL,
    -- the newest compacted sample (a counter's increase across windows starts there)
    last_ms     BIGINT NOT NULL,
    last_value  DOUBLE PRECISION
);
CREATE INDEX series_node ON series (node, metric);
CREATE INDEX series_pod ON series (pod, metric) WHERE pod IS NOT NULL;

-- The head: what the consumer wrote and compaction has not yet turned into per-series chunks. One block holds
-- the samples of one node and one chunk window from one batch (all its series, columnar, zstd).
CREATE TABLE head_block (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    node        TEXT NOT NULL,
    window_ms   BIGINT NOT NULL,
    min_ms      BIGINT NOT NULL,
    max_ms      BIGINT NOT NULL,
    samples     INT NOT NULL,
    body        BYTEA NOT NULL
);
CREATE INDEX head_block_node ON head_block (node, window_ms);
ALTER TABLE head_block ALTER COLUMN body SET STORAGE EXTERNAL;

-- The (node, window) pairs that have head blocks, with the newest sample seen: compaction's work list.
CREATE TABLE head_window (
    node        TEXT NOT NULL,
    window_ms   BIGINT NOT NULL,
    max_ms      BIGINT NOT NULL,
    PRIMARY KEY (node, window_ms)
);

-- Raw chunks: one per series and window (2 h), partitioned by the UTC day of the window.
CREATE TABLE chunk (
    series_id   BIGINT NOT NULL,
    start_ms    BIGINT NOT NULL,
    min_ms      BIGINT NOT NULL,
    max_ms      BIGINT NOT NULL,
    samples     INT NOT NULL,
    body        BYTEA NOT NULL,
    PRIMARY KEY (series_id, start_ms)
) PARTITION BY RANGE (start_ms);
ALTER TABLE chunk ALTER COLUMN body SET STORAGE EXTERNAL;

-- 1-minute rollups (min, max, sum, count, last, increase): one chunk per series and window, by day.
CREATE TABLE rollup_1m (
    series_id   BIGINT NOT NULL,
    start_ms    BIGINT NOT NULL,
    points      INT NOT NULL,
    body        BYTEA NOT NULL,
    PRIMARY KEY (series_id, start_ms)
) PARTITION BY RANGE (start_ms);
ALTER TABLE rollup_1m ALTER COLUMN body SET STORAGE EXTERNAL;

-- 1-hour rollups: one chunk per series and UTC day, partitioned by month.
CREATE TABLE rollup_1h (
    series_id   BIGINT NOT NULL,
    start_ms    BIGINT NOT NULL,
    points      INT NOT NULL,
    body        BYTEA NOT NULL,
    PRIMARY KEY (series_id, start_ms)
) PARTITION BY RANGE (start_ms);
ALTER TABLE rollup_1h ALTER COLUMN body SET STORAGE EXTERNAL;

-- Xid errors as events: every change of a GPU's last Xid (DCGM_FI_DEV_XID_ERRORS) and every increase of
-- DCGM_EXP_XID_ERRORS_COUNT, with its code.
CREATE TABLE xid_event (
    node        TEXT NOT NULL,
    gpu         TEXT NOT NULL,
    ts_ms       BIGINT NOT NULL,
    code        INT NOT NULL,
    count       INT NOT NULL,
    pod         TEXT,
    namespace   TEXT,
    PRIMARY KEY (node, gpu, ts_ms, code)
);
-- What the Xid detection last saw per GPU (the last code, the last windowed count per code).
CREATE TABLE xid_state (
    node        TEXT NOT NULL,
    gpu         TEXT NOT NULL,
    state_key   TEXT NOT NULL,
    value       DOUBLE PRECISION NOT NULL,
    ts_ms       BIGINT NOT NULL,
    PRIMARY KEY (node, gpu, state_key)
);

-- What jobmon.job.changes says about each job beyond access: where it ran, for attribution and the overview.
CREATE TABLE job_info (
    job_id        TEXT PRIMARY KEY,
    tenant        TEXT NOT NULL,
    owner         TEXT NOT NULL,
    name          TEXT,
    cluster       TEXT,
    queue         TEXT,
    status        TEXT,
    gpu_type      TEXT,
    gpu_count     INT NOT NULL DEFAULT 0,
    namespace     TEXT,
    pods          TEXT[] NOT NULL DEFAULT '{}',
    nodes         TEXT[] NOT NULL DEFAULT '{}',
    submitted_at  TIMESTAMPTZ,
    started_at    TIMESTAMPTZ,
    finished_at   TIMESTAMPTZ,
    version       BIGINT NOT NULL,
    deleted       BOOLEAN NOT NULL DEFAULT FALSE,
    summary_due   TIMESTAMPTZ
);
CREATE INDEX job_info_status ON job_info (tenant, status) WHERE NOT deleted;
CREATE INDEX job_info_summary_due ON job_info (summary_due) WHERE summary_due IS NOT NULL;

-- When a job's pods ran on a node (from successive snapshots): attribution of series without pod labels.
CREATE TABLE job_node (
    job_id      TEXT NOT NULL,
    node        TEXT NOT NULL,
    from_ms     BIGINT NOT NULL,
    to_ms       BIGINT,
    pods        TEXT[] NOT NULL DEFAULT '{}',
    gpus        INT,
    PRIMARY KEY (job_id, node, from_ms)
);
CREATE INDEX job_node_node ON job_node (node, from_ms);

-- The per-job summary, written when the job ended (kept as long as the job).
CREATE TABLE job_summary (
    job_id      TEXT PRIMARY KEY,
    computed_at TIMESTAMPTZ NOT NULL,
    body        JSONB NOT NULL
);

-- Scrape targets: static ones from the configuration, discovered ones from Kubernetes (per cluster).
CREATE TABLE scrape_target (
    id          TEXT PRIMARY KEY,
    url         TEXT NOT NULL,
    job         TEXT NOT NULL,
    node        TEXT,
    cluster     TEXT,
    pool        TEXT,
    source      TEXT NOT NULL,
    seen_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Leases (a target's scraper, a cluster's discoverer) and live replicas, judged by the database's clock.
CREATE TABLE lease (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
CREATE TABLE replica (
    holder      TEXT PRIMARY KEY,
    expires_at  TIMESTAMPTZ NOT NULL
);

-- The last scrape of each target, by whichever replica scraped it (the admin API).
CREATE TABLE scrape_health (
    target      TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    scraped_at  TIMESTAMPTZ NOT NULL,
    up          BOOLEAN NOT NULL,
    duration_ms DOUBLE PRECISION NOT NULL,
    samples     INT NOT NULL,
    error       TEXT
);
