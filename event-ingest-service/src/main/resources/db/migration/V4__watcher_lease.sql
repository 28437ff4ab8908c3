-- Who watches each kubernetes cluster: one replica of event-ingest-service at a time holds a cluster's lease and
-- renews it; when it stops renewing (it died, or lost the database), another takes the cluster over once the lease
-- expired. Times are the database's, so the replicas' clocks do not matter.
CREATE TABLE watcher_lease (
    cluster    TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
