-- With chunk bodies in an object store (ADR 0038), the newest chunk of each stream (kind, node, namespace, pod,
-- container, Kafka partition) keeps its newest segments (at least 256 lines: one or two) in its index row, a zstd
-- frame of the body's format holding only those (a small body whole), so that a tail of the newest lines needs no
-- GET (ADR 0047).
-- Indexing a newer chunk of the stream clears the older one's in the same transaction: a few KB
-- per live stream. NULL in PostgreSQL mode (the bodies are in chunk_body) and in rows written before this migration.
ALTER TABLE chunk ADD COLUMN newest BYTEA;
-- The rows that keep one, by stream: the clearing of an older one looks here (one row per live stream).
CREATE INDEX chunk_kept ON chunk (pod, container, node) WHERE newest IS NOT NULL;
