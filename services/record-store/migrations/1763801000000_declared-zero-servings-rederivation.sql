-- Up Migration

-- ---------------------------------------------------------------------------
-- A declared zero is zero (decision 1007): "Trans Fat 0 g" is a declared
-- amount of 0; only NULL means the label names the line without an amount.
-- ---------------------------------------------------------------------------
ALTER TABLE declared_ingredients DROP CONSTRAINT declared_ingredients_amount_check;
ALTER TABLE declared_ingredients ADD CONSTRAINT declared_ingredients_amount_check CHECK (amount IS NULL OR amount >= 0);
ALTER TABLE declared_blends DROP CONSTRAINT declared_blends_total_amount_check;
ALTER TABLE declared_blends ADD CONSTRAINT declared_blends_total_amount_check CHECK (total_amount IS NULL OR total_amount >= 0);

-- The label's own words where it gives no amount ("1.25 billion CFU" in a row's note): evidence beside an
-- undisclosed amount, never read as one.
ALTER TABLE declared_ingredients ADD COLUMN amount_note text CHECK (amount_note IS NULL OR amount IS NULL);

-- Every serving size a label declares. The first stays in history_states' serving columns; the others, and
-- the amounts each of them declares, are kept beside it:
--   other_servings:     [{serving_order, size, unit, description, note}]
--   amounts_by_serving: [{serving_order, amount, unit, operator}] (totals_by_serving for a blend's total)
ALTER TABLE history_states ADD COLUMN other_servings jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(other_servings) = 'array');
ALTER TABLE declared_ingredients ADD COLUMN amounts_by_serving jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(amounts_by_serving) = 'array');
ALTER TABLE declared_blends ADD COLUMN totals_by_serving jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(totals_by_serving) = 'array');

-- ---------------------------------------------------------------------------
-- Re-derivation (decision 1400): a state read under an older reading rule is
-- read again from its preserved label bytes. The state keeps its id, dates
-- and evidence; its declared lines are replaced by what the current rule
-- reads, and what they were is kept here. Operator-side: never in an answer.
-- ---------------------------------------------------------------------------
CREATE TABLE state_rederivations (
  rederivation_id bigserial PRIMARY KEY,
  state_id        text NOT NULL REFERENCES history_states,
  evidence_sha256 text NOT NULL CHECK (evidence_sha256 ~ '^[0-9a-f]{64}$'),
  before          jsonb NOT NULL,
  after           jsonb NOT NULL,
  rederived_at    timestamptz NOT NULL DEFAULT now(),
  rederived_by    text NOT NULL
);
CREATE INDEX state_rederivations_state ON state_rederivations (state_id);
CREATE TRIGGER state_rederivations_bumps_record_version AFTER INSERT OR UPDATE OR DELETE ON state_rederivations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version();

-- Down Migration
DROP TABLE state_rederivations;
ALTER TABLE declared_blends DROP COLUMN totals_by_serving;
ALTER TABLE declared_ingredients DROP COLUMN amounts_by_serving;
ALTER TABLE history_states DROP COLUMN other_servings;
ALTER TABLE declared_ingredients DROP COLUMN amount_note;
ALTER TABLE declared_blends DROP CONSTRAINT declared_blends_total_amount_check;
ALTER TABLE declared_blends ADD CONSTRAINT declared_blends_total_amount_check CHECK (total_amount IS NULL OR total_amount > 0) NOT VALID;
ALTER TABLE declared_ingredients DROP CONSTRAINT declared_ingredients_amount_check;
ALTER TABLE declared_ingredients ADD CONSTRAINT declared_ingredients_amount_check CHECK (amount IS NULL OR amount > 0) NOT VALID;
