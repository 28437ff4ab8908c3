-- Which pod held which GPU when (docs/adr/0009-gpu-holdings.md), from the series dcgm-exporter labels with the pod:
-- written by ingest in the batch's transaction, only when a holding starts, ends or was seen a while longer.
--   gpu        the GPU's key on the node: dcgm-exporter's index ('gpu'), else its UUID; '/<GPU_I_ID>' for a MIG instance
--   from_ms    the first labelled sample of the pod on the GPU; to_ms its last one once the holding ended (another
--              pod's sample on the GPU, the same series without the pod, or no labelled sample for the gap), else null
--   last_ms    the last labelled sample seen (refreshed every quarter of the gap): the gap is measured from it
CREATE TABLE gpu_holding (
    node        TEXT NOT NULL,
    gpu         TEXT NOT NULL,
    from_ms     BIGINT NOT NULL,
    to_ms       BIGINT,
    last_ms     BIGINT NOT NULL,
    uuid        TEXT,
    pci_bus_id  TEXT,
    device      TEXT,
    model       TEXT,
    cluster     TEXT,
    namespace   TEXT,
    pod         TEXT NOT NULL,
    -- the holder's reference series: its metric name and the MD5 (hex) of its labels other than pod, namespace and
    -- container; the same series arriving without the pod ends the holding
    ref_metric  TEXT,
    ref_labels  TEXT,
    PRIMARY KEY (node, gpu, from_ms)
) WITH (fillfactor = 50);  -- last_ms is refreshed in place (HOT updates: no index holds it)
CREATE INDEX gpu_holding_open ON gpu_holding (node) WHERE to_ms IS NULL;
CREATE INDEX gpu_holding_pod ON gpu_holding (pod, from_ms);

-- A holding changes which series are a job's (attribution by GPU identity): the charts kept in memory hear it.
CREATE FUNCTION notice_gpu_holding() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r gpu_holding;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM pg_notify('metrics_changes', 'node:' || r.node);
    PERFORM pg_notify('metrics_changes', 'pod:' || r.pod);
    RETURN NULL;
END $$;
CREATE TRIGGER gpu_holding_notice AFTER INSERT OR DELETE OR UPDATE OF to_ms, from_ms, pod ON gpu_holding
    FOR EACH ROW EXECUTE PROCEDURE notice_gpu_holding();

-- outbox is contracts' table (outbox.Outbox), created by its migration V0_3 (db/shared/outbox;
-- docs/adr/0014-shared-tables-owned-by-contracts.md).
