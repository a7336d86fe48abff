-- Up Migration
-- What a label prints as a declared line's % Daily Value for its serving
-- (decision 2440): DSLD's dailyValueTargetGroup as [{percent, operator?,
-- target_group, note?}], one per target group, as printed. Evidence beside
-- the line's amount, like its amount note: never an amount, never compared
-- between two labels. NULL: the line was read before the Record read it (or a
-- capture bundle gave none), which re-derivation from the kept bytes fills;
-- '[]': read, and the label prints none.
ALTER TABLE declared_ingredients ADD COLUMN daily_values jsonb
  CHECK (daily_values IS NULL OR (jsonb_typeof(daily_values) = 'array' AND jsonb_array_length(daily_values) <= 4));

-- Down Migration
ALTER TABLE declared_ingredients DROP COLUMN IF EXISTS daily_values;
