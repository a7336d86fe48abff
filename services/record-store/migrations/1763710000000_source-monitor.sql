-- Up Migration

-- ---------------------------------------------------------------------------
-- The source monitor (services/monitor, docs/monitor.md, decisions 1000-1009).
-- ---------------------------------------------------------------------------

-- Two kinds a monitor can read. 'manufacturer' and 'retailer' stay valid for
-- sources written by capture imports and the demo seed before the monitor.
ALTER TABLE sources DROP CONSTRAINT sources_kind_check;
ALTER TABLE sources ADD CONSTRAINT sources_kind_check
  CHECK (kind IN ('manufacturer', 'retailer', 'dsld_label', 'offer_page'));

ALTER TABLE sources
  -- The weekly cadence of decision 0502 unless the operator says otherwise.
  ADD COLUMN cadence                interval NOT NULL DEFAULT interval '7 days'
                                    CHECK (cadence >= interval '1 minute' AND cadence <= interval '366 days'),
  ADD COLUMN state                  text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'paused')),
  -- NULL: not monitored (a source a capture import named); the monitor only reads sources it was given.
  ADD COLUMN next_check_due         timestamptz,
  -- host:port of the URL: politeness is per host (decision 1003).
  ADD COLUMN host                   text,
  -- A lease: the replica reading the source now, and a fencing token its write must present (decision 1002).
  ADD COLUMN lease_owner            text,
  ADD COLUMN lease_token            uuid,
  ADD COLUMN lease_expires_at       timestamptz,
  -- HTTP validators of the last valid read, sent as If-None-Match / If-Modified-Since.
  ADD COLUMN etag                   text,
  ADD COLUMN last_modified          text,
  ADD COLUMN consecutive_unreadable int NOT NULL DEFAULT 0 CHECK (consecutive_unreadable >= 0),
  ADD COLUMN last_outcome           text CHECK (last_outcome IN ('valid', 'empty', 'unreadable')),
  ADD COLUMN last_checked_at        timestamptz,
  -- The evidence of the last valid read: the content the last 304 stands for.
  ADD COLUMN last_evidence_sha256   text CHECK (last_evidence_sha256 IS NULL OR last_evidence_sha256 ~ '^[0-9a-f]{64}$'),
  ADD COLUMN added_by               text,
  ADD COLUMN created_at             timestamptz NOT NULL DEFAULT now();

CREATE INDEX sources_due ON sources (next_check_due) WHERE state = 'active' AND next_check_due IS NOT NULL;
CREATE INDEX sources_host ON sources (host) WHERE host IS NOT NULL;

-- Taking or giving back a lease is not a Record change: the sources trigger
-- fires only when a column other than the lease columns is written, so a
-- monitor leasing sources does not move record_version (decision 1002).
DROP TRIGGER sources_bumps_record_version ON sources;
CREATE TRIGGER sources_bumps_record_version
  AFTER INSERT OR DELETE OR UPDATE OF product_id, kind, retailer, url, health, health_since, last_read_at, cadence, state,
    next_check_due, host, etag, last_modified, consecutive_unreadable, last_outcome, last_checked_at, last_evidence_sha256, added_by
  ON sources FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version();

-- ---------------------------------------------------------------------------
-- One row per check. A check of a monitored source names why it ended as it
-- did; a manual capture import records a check too (source_kind 'manual').
-- ---------------------------------------------------------------------------
ALTER TABLE monitoring_checks
  ADD COLUMN reason        text,
  ADD COLUMN http_status   int CHECK (http_status IS NULL OR http_status BETWEEN 100 AND 599),
  ADD COLUMN duration_ms   int CHECK (duration_ms IS NULL OR duration_ms >= 0),
  ADD COLUMN evidence_sha256 text CHECK (evidence_sha256 IS NULL OR evidence_sha256 ~ '^[0-9a-f]{64}$'),
  ADD COLUMN capture_id    bigint REFERENCES captures,
  ADD COLUMN checked_by    text;
CREATE INDEX monitoring_checks_source ON monitoring_checks (source_id, checked_at) WHERE source_id IS NOT NULL;

-- The operator of a declared amount ('<', '>', ...); NULL is '=' (every amount before the monitor).
ALTER TABLE declared_ingredients ADD COLUMN amount_operator text
  CHECK (amount_operator IS NULL OR (amount_operator IN ('<', '>', '<=', '>=', '~') AND amount IS NOT NULL));

-- The label's source marks the product off the market (DSLD offMarket). Part of a state's content, so
-- the flag flipping makes a new state and a candidate for review, never an automatic retirement.
ALTER TABLE history_states ADD COLUMN off_market boolean NOT NULL DEFAULT false;

-- What the source said about the label it served (DSLD label id, productVersionCode,
-- dated events, offMarket), kept with the capture that read it.
ALTER TABLE captures ADD COLUMN source_facts jsonb;

-- ---------------------------------------------------------------------------
-- Evidence, content-addressed: what a check read, stored once per distinct
-- content (decision 1004). Never read by the API. Not a Record table: a row
-- is immutable and only referenced by hash from captures and checks.
-- ---------------------------------------------------------------------------
CREATE TABLE evidence (
  sha256       text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  kind         text NOT NULL CHECK (kind IN ('dsld_label', 'offer_page')),
  media_type   text NOT NULL,
  content      bytea NOT NULL,
  byte_length  int NOT NULL CHECK (byte_length >= 0),
  first_seen_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE evidence ALTER COLUMN content SET STORAGE EXTENDED;

-- ---------------------------------------------------------------------------
-- Politeness per host across replicas (decision 1003): at most one request in
-- flight per host and a minimum interval between two; Retry-After pushes
-- next_allowed_at out. Not a Record table.
-- ---------------------------------------------------------------------------
CREATE TABLE host_slots (
  host            text PRIMARY KEY,
  busy_until      timestamptz,
  busy_owner      text,
  next_allowed_at timestamptz NOT NULL DEFAULT now()
);

-- ---------------------------------------------------------------------------
-- Who opened a candidate: 'monitor' or the operator's name.
-- ---------------------------------------------------------------------------
ALTER TABLE candidates ADD COLUMN opened_by text NOT NULL DEFAULT 'operator';

-- Down Migration
ALTER TABLE candidates DROP COLUMN opened_by;
DROP TABLE host_slots;
DROP TABLE evidence;
ALTER TABLE captures DROP COLUMN source_facts;
ALTER TABLE history_states DROP COLUMN off_market;
ALTER TABLE declared_ingredients DROP COLUMN amount_operator;
DROP INDEX monitoring_checks_source;
ALTER TABLE monitoring_checks DROP COLUMN reason, DROP COLUMN http_status, DROP COLUMN duration_ms,
  DROP COLUMN evidence_sha256, DROP COLUMN capture_id, DROP COLUMN checked_by;
DROP TRIGGER sources_bumps_record_version ON sources;
CREATE TRIGGER sources_bumps_record_version AFTER INSERT OR UPDATE OR DELETE ON sources
  FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version();
DROP INDEX sources_host;
DROP INDEX sources_due;
ALTER TABLE sources DROP COLUMN cadence, DROP COLUMN state, DROP COLUMN next_check_due, DROP COLUMN host,
  DROP COLUMN lease_owner, DROP COLUMN lease_token, DROP COLUMN lease_expires_at, DROP COLUMN etag, DROP COLUMN last_modified,
  DROP COLUMN consecutive_unreadable, DROP COLUMN last_outcome, DROP COLUMN last_checked_at, DROP COLUMN last_evidence_sha256,
  DROP COLUMN added_by, DROP COLUMN created_at;
ALTER TABLE sources DROP CONSTRAINT sources_kind_check;
ALTER TABLE sources ADD CONSTRAINT sources_kind_check CHECK (kind IN ('manufacturer', 'retailer'));
