-- The raw performance snapshot of a diagnosis: the metric series it read (the window at full resolution, the run
-- before it at coarse steps), as the engine saw them, each thinned to at most `evidence.snapshot-points` points.
-- Kept with the diagnosis so a reader can see the charts it rests on after metrics-service's retention removed them.
-- NULL for diagnoses made before it was kept, and until a diagnosis is DONE.
ALTER TABLE diagnosis ADD COLUMN metric_snapshot JSONB;
