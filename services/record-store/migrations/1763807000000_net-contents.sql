-- Up Migration
-- What a label declares its container holds (decision 2410): DSLD's
-- netContents as [{quantity, unit}] in the label's order ("60 Caplet(s)",
-- "520 g"). Declared content of the state, re-derived from kept bytes like the
-- rest of it (decision 1400). '[]' for a state read before the Record read net
-- contents, one captured without them, or a label that declares none.
-- Servings per container are derived from it only where the label declares
-- none, at answer time (never stored: the rule can change without rewriting).
ALTER TABLE history_states ADD COLUMN net_contents jsonb NOT NULL DEFAULT '[]'
  CHECK (jsonb_typeof(net_contents) = 'array' AND jsonb_array_length(net_contents) <= 10);

-- Down Migration
ALTER TABLE history_states DROP COLUMN IF EXISTS net_contents;
