-- Log chunks, their index, the jobs' facts for attribution and retention, Kafka positions and open follows.

-- Kafka offsets whose lines are stored, written in the transaction that stores them: a re-read record (crash,
-- rebalance) at an offset below next_offset is skipped, so a replay duplicates nothing.
CREATE TABLE consumer_offset (
    topic           TEXT NOT NULL,
    kafka_partition INT NOT NULL,
    next_offset     BIGINT NOT NULL,
    PRIMARY KEY (topic, kafka_partition)
);

-- What jobmon.job.changes tells about a job beyond access: its name (file names), run window (system logs,
-- retention), nodes and pods (attribution of lines without the job label).
CREATE TABLE job_info (
    job_id       TEXT PRIMARY KEY,
    tenant       TEXT NOT NULL,
    name         TEXT,
    namespace    TEXT,
    status       TEXT,
    submitted_at TIMESTAMPTZ,
    started_at   TIMESTAMPTZ,
    finished_at  TIMESTAMPTZ,
    nodes        TEXT[] NOT NULL DEFAULT '{}',
    deleted      BOOLEAN NOT NULL DEFAULT FALSE,
    version      BIGINT NOT NULL,
    -- set when its logs were removed (retention or deletion): queries answer 410 from then on
    expired_at   TIMESTAMPTZ
);

-- Pods of jobs by name (namespace '' when the snapshot did not say).
CREATE TABLE job_pod (
    pod       TEXT NOT NULL,
    namespace TEXT NOT NULL DEFAULT '',
    job_id    TEXT NOT NULL,
    PRIMARY KEY (pod, namespace)
);
CREATE INDEX job_pod_job ON job_pod (job_id);

-- The chunk index: one row per compressed chunk of one stream's lines from one Kafka partition.
-- kind 'u' (user: a job's container) or 's' (system: a node's kubelet, containerd, device plugin, kernel);
-- for system chunks container holds the source. job_id is NULL for system chunks and for user lines whose job is
-- not known yet (attributed when the job's snapshot names the pod, dropped after the grace period).
-- Times are epoch nanoseconds. level 0 = written by a flush (short-lived), 1 = compacted.
-- filter: a trigram bloom filter of the lowercased text, a power-of-two number of bytes.
-- Partitioned by the UTC day the chunk was first written: expiry drops whole days once they hold no kept chunk.
CREATE SEQUENCE chunk_id_seq;
CREATE TABLE chunk (
    id              BIGINT NOT NULL,
    day             DATE NOT NULL,
    job_id          TEXT,
    kind            CHAR(1) NOT NULL,
    node            TEXT NOT NULL DEFAULT '',
    namespace       TEXT NOT NULL DEFAULT '',
    pod             TEXT NOT NULL DEFAULT '',
    container       TEXT NOT NULL DEFAULT '',
    kafka_partition INT NOT NULL,
    min_offset      BIGINT NOT NULL,
    max_offset      BIGINT NOT NULL,
    min_time        BIGINT NOT NULL,
    max_time        BIGINT NOT NULL,
    lines           INT NOT NULL,
    raw_bytes       BIGINT NOT NULL,
    stored_bytes    INT NOT NULL,
    level           SMALLINT NOT NULL,
    filter          BYTEA NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (day, id)
) PARTITION BY RANGE (day);
CREATE INDEX chunk_job_time ON chunk (job_id, kind, max_time);
CREATE INDEX chunk_job_position ON chunk (job_id, kafka_partition, max_offset);
CREATE INDEX chunk_node_time ON chunk (node, max_time) WHERE kind = 's';
CREATE INDEX chunk_unattributed ON chunk (pod) WHERE job_id IS NULL AND kind = 'u';
CREATE INDEX chunk_fresh ON chunk (created_at) WHERE level = 0;

-- Chunk bodies (zstd) when PostgreSQL holds them (the default ChunkStore); same day partitions as the index.
CREATE TABLE chunk_body (
    day  DATE NOT NULL,
    id   BIGINT NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (day, id)
) PARTITION BY RANGE (day);

-- May a chunk hold every trigram hash? (bit h mod the filter's size is set for each; no hashes: yes)
CREATE FUNCTION bloom_may_contain(f BYTEA, hashes INT[]) RETURNS BOOLEAN LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT coalesce(bool_and(get_bit(f, h & (length(f) * 8 - 1)) = 1), TRUE) FROM unnest(hashes) AS h $$;

-- Open follows (SSE) of every replica, for the per-user limit; a replica refreshes its rows' heartbeat, rows of a
-- replica that died go stale and stop counting.
CREATE TABLE follow_session (
    id           UUID PRIMARY KEY,
    tenant       TEXT NOT NULL,
    username     TEXT NOT NULL,
    replica      TEXT NOT NULL,
    started_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX follow_session_user ON follow_session (tenant, username);
