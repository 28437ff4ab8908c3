-- Whose a node's system line is (attribution/): what tells a job's pods and GPUs among a node's.
-- A pod's UID and its containers' runtime ids, from the shippers' records of its own lines (one row per new
-- pod, uid, container id): the kernel names them in cgroup paths, containerd by the id.
CREATE TABLE pod_identity (
    namespace    TEXT NOT NULL,
    pod          TEXT NOT NULL,
    uid          TEXT NOT NULL,
    container_id TEXT NOT NULL,
    node         TEXT NOT NULL,
    seen_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (pod, namespace, uid, container_id)
);

-- Which pod held which GPU when (jobmon.gpu.holdings, from metrics-service): an NVRM Xid line names the PCI bus
-- id, the device plugin the UUID. Upserted by (node, GPU, namespace, pod, from); to_time NULL while held.
CREATE TABLE gpu_holding (
    node       TEXT NOT NULL,
    gpu_key    TEXT NOT NULL,
    namespace  TEXT NOT NULL,
    pod        TEXT NOT NULL,
    from_time  TIMESTAMPTZ NOT NULL,
    to_time    TIMESTAMPTZ,
    gpu        TEXT,
    uuid       TEXT,
    bus_id     TEXT,
    cluster    TEXT,
    PRIMARY KEY (node, gpu_key, namespace, pod, from_time)
);
CREATE INDEX gpu_holding_pod ON gpu_holding (pod, namespace);
