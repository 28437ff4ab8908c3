-- Events about nodes (NodeNotReady, NodeHasDiskPressure, SystemOOM, Rebooted, node-problem-detector's kernel
-- events, ...): kept per node, belonging to no job. A job's events include those of the nodes its pods ran on,
-- while they ran there. Retention deletes rows older than the event partitions kept.
CREATE TABLE node_event (
    cluster          TEXT NOT NULL,
    uid              TEXT NOT NULL,
    node             TEXT NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    namespace        TEXT,
    name             TEXT,
    type             TEXT,
    reason           TEXT,
    message          TEXT,
    count            INT NOT NULL,
    first_time       TIMESTAMPTZ,
    last_time        TIMESTAMPTZ NOT NULL,
    source           TEXT,
    resource_version BIGINT NOT NULL,
    PRIMARY KEY (cluster, uid)
);
CREATE INDEX node_event_node_time ON node_event (cluster, node, last_time, uid);
CREATE INDEX node_event_created ON node_event (created_at);
