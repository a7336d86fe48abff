-- Up Migration

-- A writer of many small changes (the monitor's recorder, decision 1010) may
-- take the Record's writer lock in shared mode for its writes and assign its
-- record version itself, just before COMMIT, under a second, exclusive lock
-- (7300002) held to the end of the transaction. It says so with
-- record.version_at_commit = on; its statements then only mark the version as
-- owed. Every other writer is unchanged: its first Record write takes the
-- writer lock exclusively, which waits for every shared holder and keeps them
-- out until it commits, so version ids still follow commit order.
CREATE OR REPLACE FUNCTION bump_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('record.version_at_commit', true) = 'on' THEN
    PERFORM set_config('record.version_owed', 'on', true);
    RETURN NULL;
  END IF;
  -- One writer at a time: the version id is taken after the lock, so ids follow commit order.
  PERFORM pg_advisory_xact_lock(7300001);
  INSERT INTO record_versions (txid, reason)
  VALUES (txid_current(), coalesce(nullif(current_setting('record.change_reason', true), ''), TG_TABLE_NAME || ' changed'))
  ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END $$;

-- Down Migration
CREATE OR REPLACE FUNCTION bump_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One writer at a time: the version id is taken after the lock, so ids follow commit order.
  PERFORM pg_advisory_xact_lock(7300001);
  INSERT INTO record_versions (txid, reason)
  VALUES (txid_current(), coalesce(nullif(current_setting('record.change_reason', true), ''), TG_TABLE_NAME || ' changed'))
  ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END $$;
