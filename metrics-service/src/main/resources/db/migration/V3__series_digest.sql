-- A series is found by a 16-byte digest (MD5) of its key (node|name{sorted labels}) rather than by the key's text,
-- which was kept twice (the row and its unique index) at ~450 bytes per dcgm-exporter series. The labels stay in
-- 'labels'. (docs/metrics-service.md, "Storage")
-- From this version on, rollup_1m holds one chunk per series and UTC day, as rollup_1h does; chunks written one per
-- 2-hour window before are read alongside and merged into their day's chunk by the compactor.
ALTER TABLE series ADD COLUMN key_hash BYTEA;
UPDATE series SET key_hash = decode(md5(series_key), 'hex');
ALTER TABLE series ALTER COLUMN key_hash SET NOT NULL;
ALTER TABLE series ADD CONSTRAINT series_key_hash_key UNIQUE (key_hash);
ALTER TABLE series DROP COLUMN series_key;
