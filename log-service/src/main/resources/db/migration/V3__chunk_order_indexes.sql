-- A job's chunks are read in order: forward by (min_time, id), backward (a tail) by (max_time, id), a batch at a time.
-- With the whole order in the index, a batch is an ordered index scan that stops after the batch instead of a sort of
-- all the job's chunks of the day (ChunkQueries). Chunk rows are few (one per ~1 MB of lines): the indexes are cheap.
CREATE INDEX chunk_job_first ON chunk (job_id, kind, min_time, id);
CREATE INDEX chunk_job_last ON chunk (job_id, kind, max_time, id);
DROP INDEX chunk_job_time;
