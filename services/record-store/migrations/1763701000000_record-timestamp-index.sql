-- Up Migration
-- record_timestamp is the newest dated observation held; its max() must be an
-- index lookup, not a scan of every monitoring check (about 90 ms at 100k products).
CREATE INDEX IF NOT EXISTS monitoring_checks_checked_at ON monitoring_checks (checked_at);

-- Down Migration
DROP INDEX IF EXISTS monitoring_checks_checked_at;
