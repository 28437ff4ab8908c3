-- Bytes per sample (issue #30, docs/adr/0050-narrow-series-and-hour-rollups-from-minutes.md). A series row is written
-- once and never again: what the compactor refreshes per window (the newest compacted sample) moves to a narrow table
-- of its own; the attribution labels (gpu, pod, namespace, container, cluster, pool) are functions of the labels and
-- move to the label set; the series is found by (node, metric, label set), one unique index, instead of the digest of
-- its key. Since this version 1-hour rollups of a day whose 1-minute ones are kept are not written (they are read
-- from the 1-minute ones); rows written before stay and are read alongside.

-- the newest compacted sample of the series that need it exactly: counters (a counter's increase across windows
-- starts there) and DCGM_FI_DEV_GPU_UTIL (which GPUs were present, the overview); no row yet: the series' first
-- sample. Only HOT updates: no index holds last_ms or last_value.
CREATE TABLE series_last (
    series_id   BIGINT PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
    last_ms     BIGINT NOT NULL,
    last_value  DOUBLE PRECISION
) WITH (fillfactor = 50);
INSERT INTO series_last (series_id, last_ms, last_value) SELECT id, last_ms, last_value FROM series
    WHERE counter OR metric = 'DCGM_FI_DEV_GPU_UTIL';
-- every series: the UTC day (its start, epoch ms) of its newest compacted sample, refreshed once a day (retention)
ALTER TABLE series ADD COLUMN last_day BIGINT;
UPDATE series SET last_day = last_ms - mod(last_ms, 86400000);
ALTER TABLE series ALTER COLUMN last_day SET NOT NULL;

ALTER TABLE label_set ADD COLUMN gpu TEXT, ADD COLUMN pod TEXT, ADD COLUMN namespace TEXT, ADD COLUMN container TEXT,
    ADD COLUMN cluster TEXT, ADD COLUMN pool TEXT;
UPDATE label_set l SET gpu = s.gpu, pod = s.pod, namespace = s.namespace, container = s.container,
    cluster = s.cluster, pool = s.pool
    FROM (SELECT DISTINCT ON (label_set_id) label_set_id, gpu, pod, namespace, container, cluster, pool FROM series
          ORDER BY label_set_id) s WHERE s.label_set_id = l.id;
CREATE INDEX label_set_pod ON label_set (pod) WHERE pod IS NOT NULL;

-- the change notice of a series names its label set's pod
CREATE OR REPLACE FUNCTION notice_series() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r series;
    p TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM pg_notify('metrics_changes', 'node:' || r.node);
    SELECT l.pod INTO p FROM label_set l WHERE l.id = r.label_set_id;
    IF p IS NOT NULL THEN
        PERFORM pg_notify('metrics_changes', 'pod:' || p);
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER series_notice ON series;
DROP INDEX series_node;
DROP INDEX series_pod;
ALTER TABLE series DROP COLUMN key_hash, DROP COLUMN gpu, DROP COLUMN pod, DROP COLUMN namespace,
    DROP COLUMN container, DROP COLUMN cluster, DROP COLUMN pool, DROP COLUMN last_ms, DROP COLUMN last_value;
ALTER TABLE series ADD CONSTRAINT series_identity UNIQUE (node, metric, label_set_id);
-- a pod's series: through its label sets
CREATE INDEX series_label_set ON series (label_set_id);
ALTER TABLE series SET (fillfactor = 100);
CREATE TRIGGER series_notice AFTER INSERT OR DELETE OR UPDATE OF metric, node, label_set_id, counter ON series
    FOR EACH ROW EXECUTE PROCEDURE notice_series();
