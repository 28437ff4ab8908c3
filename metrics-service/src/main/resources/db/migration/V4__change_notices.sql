-- Change notices: every replica keeps what charts read (a job's lookups, decoded blocks) in memory and must know
-- when another replica changed it. Each change below sends a token on the channel 'metrics_changes' when its
-- transaction commits; a replica LISTENs and drops what depended on the token (docs/adr/0008-replica-caches.md).
--   job:<id>    the job's access row, facts or intervals
--   node:<n>    who ran on the node (job_node) or which series it has
--   pod:<p>     a series labelled with the pod
--   head:<n>    the node's head blocks (written by ingest, removed by compaction with its chunks and rollups)
-- Retention sends 'all' itself (dropping a partition fires no trigger).
CREATE FUNCTION notice_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('metrics_changes', 'job:' || OLD.job_id);
    ELSE
        PERFORM pg_notify('metrics_changes', 'job:' || NEW.job_id);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION notice_job_node() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r job_node;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM pg_notify('metrics_changes', 'job:' || r.job_id);
    PERFORM pg_notify('metrics_changes', 'node:' || r.node);
    RETURN NULL;
END $$;

CREATE FUNCTION notice_series() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r series;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM pg_notify('metrics_changes', 'node:' || r.node);
    IF r.pod IS NOT NULL THEN
        PERFORM pg_notify('metrics_changes', 'pod:' || r.pod);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION notice_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('metrics_changes', 'head:' || OLD.node);
    ELSE
        PERFORM pg_notify('metrics_changes', 'head:' || NEW.node);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER job_access_notice AFTER INSERT OR UPDATE OR DELETE ON job_access
    FOR EACH ROW EXECUTE PROCEDURE notice_job();
CREATE TRIGGER job_info_notice AFTER INSERT OR UPDATE OR DELETE ON job_info
    FOR EACH ROW EXECUTE PROCEDURE notice_job();
CREATE TRIGGER job_node_notice AFTER INSERT OR UPDATE OR DELETE ON job_node
    FOR EACH ROW EXECUTE PROCEDURE notice_job_node();
CREATE TRIGGER series_notice AFTER INSERT OR DELETE OR UPDATE OF metric, node, labels, counter, gpu, pod, namespace,
    cluster ON series FOR EACH ROW EXECUTE PROCEDURE notice_series();
CREATE TRIGGER head_block_notice AFTER INSERT OR DELETE ON head_block
    FOR EACH ROW EXECUTE PROCEDURE notice_head();
