-- Alerts Alertmanager told metrics-service about through its webhook (docs/adr/0034-alerts-from-alertmanager.md):
-- Alertmanager forgets an alert once it is resolved, this table keeps when it fired and when it ended for 30 days.
-- One row per firing of an alert: Alertmanager's fingerprint (a hash of its labels) and its startsAt; Alertmanager
-- re-sends a group's alerts every repeat interval, the row is then updated in place.
--   status      'firing' or 'resolved', as the last notification said
--   ends_at     when it was resolved; null while firing
--   job_id      the alert's job_id label (job alerts); tenant its tenant label; both null for node/platform alerts
CREATE TABLE alert_history (
    fingerprint  TEXT COLLATE "C" NOT NULL,  -- hex; byte order, as the API's cursor compares it
    starts_at    TIMESTAMPTZ NOT NULL,
    ends_at      TIMESTAMPTZ,
    status       TEXT NOT NULL,
    alertname    TEXT NOT NULL,
    job_id       TEXT,
    tenant       TEXT,
    labels       JSONB NOT NULL,
    annotations  JSONB NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (fingerprint, starts_at)
);
-- The resolved alerts' list, newest first, per tenant and per job.
CREATE INDEX alert_history_tenant ON alert_history (tenant, starts_at DESC, fingerprint DESC);
CREATE INDEX alert_history_job ON alert_history (job_id, starts_at DESC) WHERE job_id IS NOT NULL;
-- Retention (AlertHistoryRepository.deleteOlderThan): by when the alert ended, or started when it never did.
CREATE INDEX alert_history_age ON alert_history (COALESCE(ends_at, starts_at));
