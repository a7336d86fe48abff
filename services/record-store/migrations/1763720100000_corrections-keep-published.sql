-- Up Migration
-- A correction never rewrites what was published: each correction records the
-- summary it replaced and the one it put in place (both public), and who
-- recorded it (operator side). Every account that was emailed an alert for
-- the Signal gets one correction notice: an alert row of kind 'correction'
-- naming the correction, sent through the same NATS -> email worker path.
ALTER TABLE signal_corrections ADD COLUMN summary_before text;
ALTER TABLE signal_corrections ADD COLUMN summary_after text;
ALTER TABLE signal_corrections ADD COLUMN recorded_by text;

ALTER TABLE alerts ADD COLUMN kind text NOT NULL DEFAULT 'release' CHECK (kind IN ('release', 'correction'));
ALTER TABLE alerts ADD COLUMN correction_id bigint REFERENCES signal_corrections;
ALTER TABLE alerts ADD CONSTRAINT alerts_correction_names_one CHECK ((kind = 'correction') = (correction_id IS NOT NULL));
-- One release alert per Signal and account (as before), one notice per correction and account, whatever re-runs.
ALTER TABLE alerts DROP CONSTRAINT alerts_signal_id_account_id_key;
CREATE UNIQUE INDEX alerts_one_release_alert ON alerts (signal_id, account_id) WHERE kind = 'release';
CREATE UNIQUE INDEX alerts_one_notice_per_correction ON alerts (correction_id, account_id) WHERE correction_id IS NOT NULL;

-- Down Migration
DROP INDEX IF EXISTS alerts_one_notice_per_correction;
DELETE FROM alerts WHERE kind = 'correction';
DROP INDEX IF EXISTS alerts_one_release_alert;
ALTER TABLE alerts ADD CONSTRAINT alerts_signal_id_account_id_key UNIQUE (signal_id, account_id);
ALTER TABLE alerts DROP CONSTRAINT IF EXISTS alerts_correction_names_one;
ALTER TABLE alerts DROP COLUMN IF EXISTS correction_id;
ALTER TABLE alerts DROP COLUMN IF EXISTS kind;
ALTER TABLE signal_corrections DROP COLUMN IF EXISTS recorded_by;
ALTER TABLE signal_corrections DROP COLUMN IF EXISTS summary_after;
ALTER TABLE signal_corrections DROP COLUMN IF EXISTS summary_before;
