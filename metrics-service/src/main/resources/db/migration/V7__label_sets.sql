-- Bytes per sample (issue #30, docs/adr/0042-series-label-sets.md): a series' labels are kept once per label set,
-- not once per series. dcgm-exporter writes the same labels (UUID, pci_bus_id, modelName, Hostname, pod, ...) on all
-- ~30 metrics of a GPU, so 30 series share one set. A set is found by the MD5 digest of its JSONB text (PostgreSQL's
-- canonical form), computed by PostgreSQL on both sides.
CREATE TABLE label_set (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key_hash    BYTEA NOT NULL UNIQUE,
    labels      JSONB NOT NULL
);

INSERT INTO label_set (key_hash, labels)
    SELECT decode(md5(l::text), 'hex'), l FROM (SELECT DISTINCT labels AS l FROM series) d;
ALTER TABLE series ADD COLUMN label_set_id BIGINT;
UPDATE series s SET label_set_id = l.id FROM label_set l WHERE l.key_hash = decode(md5(s.labels::text), 'hex');
ALTER TABLE series ALTER COLUMN label_set_id SET NOT NULL;
-- the change notices' trigger (V4) named the column: the same trigger on label_set_id
DROP TRIGGER series_notice ON series;
ALTER TABLE series DROP COLUMN labels;
CREATE TRIGGER series_notice AFTER INSERT OR DELETE OR UPDATE OF metric, node, label_set_id, counter, gpu, pod,
    namespace, cluster ON series FOR EACH ROW EXECUTE PROCEDURE notice_series();

-- The compactor refreshes last_ms/last_value of every series once per window: with room left in each page these are
-- HOT updates (no index holds them), pruned in place, instead of a new tuple and new entries in every index.
ALTER TABLE series SET (fillfactor = 60);

-- A chunk's first and last time and its count are in its body (the compactor and the reads decode it anyway):
-- 20 bytes less in every chunk row, one row per series and 2-hour window.
ALTER TABLE chunk DROP COLUMN min_ms, DROP COLUMN max_ms, DROP COLUMN samples;
