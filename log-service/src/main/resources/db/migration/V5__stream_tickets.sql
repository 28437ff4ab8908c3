-- Stream tickets (ADR 0027): a browser's EventSource cannot send a bearer token, so a page asks for a ticket with its
-- token (POST .../logs/stream-tickets) and opens the follow with it. Single use, one job, short-lived; kept here so
-- that any replica redeems it. Only the ticket's SHA-256 is stored: a row read from the database opens nothing.
CREATE TABLE stream_ticket (
    hash        BYTEA PRIMARY KEY,
    job_id      TEXT NOT NULL,
    tenant      TEXT NOT NULL,
    username    TEXT NOT NULL,
    groups      TEXT[] NOT NULL,
    roles       TEXT[] NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ
);
CREATE INDEX stream_ticket_expiry ON stream_ticket (expires_at);
