-- Up Migration
-- Research context and regulatory records are curated (issue 23, decision
-- 1601): each entry has a permanent id a curator names to correct or retire
-- it, the authority and date of what it cites, who added it; a correction
-- keeps the text it replaced beside the corrected one (context_corrections,
-- like signal_corrections); a retired entry stays, dated and explained.
ALTER TABLE research_context
  ADD COLUMN entry_id text,
  ADD COLUMN authority text,
  ADD COLUMN dated text,
  ADD COLUMN retired_on date,
  ADD COLUMN retired_note text,
  ADD COLUMN added_by text,
  ADD COLUMN added_at timestamptz;
-- Existing rows get their ids (answers show them: a new record version); an empty Record gets none, and no version.
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM research_context) THEN
    UPDATE research_context SET entry_id = 'rsc_' || substr(md5(random()::text || research_id::text), 1, 12), dated = reference_year::text;
  END IF;
END $$;
ALTER TABLE research_context
  ALTER COLUMN entry_id SET DEFAULT ('rsc_' || substr(md5(random()::text || clock_timestamp()::text), 1, 12)),
  ALTER COLUMN entry_id SET NOT NULL,
  ADD CONSTRAINT research_context_entry_id_key UNIQUE (entry_id),
  ADD CONSTRAINT research_context_entry_id_format CHECK (entry_id ~ '^rsc_[0-9a-z]{12}$'),
  ADD CONSTRAINT research_context_dated_format CHECK (dated IS NULL OR dated ~ '^\d{4}(-\d{2}(-\d{2})?)?$'),
  ADD CONSTRAINT research_context_retired_explained CHECK ((retired_on IS NULL) = (retired_note IS NULL));

ALTER TABLE regulatory_records
  ADD COLUMN entry_id text,
  ADD COLUMN dated text,
  ADD COLUMN retired_on date,
  ADD COLUMN retired_note text,
  ADD COLUMN added_by text,
  ADD COLUMN added_at timestamptz;
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM regulatory_records) THEN
    UPDATE regulatory_records SET entry_id = 'reg_' || substr(md5(random()::text || regulatory_id::text), 1, 12), dated = year::text;
  END IF;
END $$;
ALTER TABLE regulatory_records
  ALTER COLUMN entry_id SET DEFAULT ('reg_' || substr(md5(random()::text || clock_timestamp()::text), 1, 12)),
  ALTER COLUMN entry_id SET NOT NULL,
  ADD CONSTRAINT regulatory_records_entry_id_key UNIQUE (entry_id),
  ADD CONSTRAINT regulatory_records_entry_id_format CHECK (entry_id ~ '^reg_[0-9a-z]{12}$'),
  ADD CONSTRAINT regulatory_records_dated_format CHECK (dated IS NULL OR dated ~ '^\d{4}(-\d{2}(-\d{2})?)?$'),
  ADD CONSTRAINT regulatory_records_retired_explained CHECK ((retired_on IS NULL) = (retired_note IS NULL));

-- One row per correction or retirement of a research or regulatory entry.
-- `changes` holds each corrected field with the value it replaced and the one
-- it put in place ([{field, before, after}]); both are public, as a Signal
-- correction's summary_before / summary_after are.
CREATE TABLE context_corrections (
  correction_id bigserial PRIMARY KEY,
  entry_id      text NOT NULL CHECK (entry_id ~ '^(rsc|reg)_[0-9a-z]{12}$'),
  kind          text NOT NULL CHECK (kind IN ('correction', 'retirement')),
  recorded_on   date NOT NULL,
  public_note   text NOT NULL,
  changes       jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(changes) = 'array'),
  recorded_by   text,
  recorded_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX context_corrections_entry ON context_corrections (entry_id, correction_id);
CREATE TRIGGER context_corrections_bumps_record_version AFTER INSERT OR UPDATE OR DELETE ON context_corrections
  FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version();

-- Down Migration
DROP TABLE context_corrections;
ALTER TABLE regulatory_records
  DROP CONSTRAINT regulatory_records_retired_explained,
  DROP CONSTRAINT regulatory_records_dated_format,
  DROP CONSTRAINT regulatory_records_entry_id_format,
  DROP CONSTRAINT regulatory_records_entry_id_key,
  DROP COLUMN added_at, DROP COLUMN added_by, DROP COLUMN retired_note, DROP COLUMN retired_on, DROP COLUMN dated, DROP COLUMN entry_id;
ALTER TABLE research_context
  DROP CONSTRAINT research_context_retired_explained,
  DROP CONSTRAINT research_context_dated_format,
  DROP CONSTRAINT research_context_entry_id_format,
  DROP CONSTRAINT research_context_entry_id_key,
  DROP COLUMN added_at, DROP COLUMN added_by, DROP COLUMN retired_note, DROP COLUMN retired_on, DROP COLUMN dated, DROP COLUMN authority, DROP COLUMN entry_id;
