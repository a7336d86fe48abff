-- Up Migration

-- ---------------------------------------------------------------------------
-- Every capture that read a history state. A state is created by its first
-- capture (history_states.capture_id); later captures that read the same
-- label extend its observed_to and are linked here, so a Signal can cite the
-- last reading of the old label and the first reading of the new one.
-- ---------------------------------------------------------------------------
CREATE TABLE state_readings (
  state_id   text NOT NULL REFERENCES history_states,
  capture_id bigint NOT NULL UNIQUE REFERENCES captures,
  PRIMARY KEY (state_id, capture_id)
);
CREATE TRIGGER state_readings_bumps_record_version AFTER INSERT OR UPDATE OR DELETE ON state_readings
  FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version();

-- ---------------------------------------------------------------------------
-- A price Signal compares two list-price observations; a promotional price is
-- never one side of a price change.
-- ---------------------------------------------------------------------------
ALTER TABLE candidates
  ADD COLUMN before_price_id bigint REFERENCES price_observations,
  ADD COLUMN after_price_id  bigint REFERENCES price_observations;
ALTER TABLE signals
  ADD COLUMN before_price_id bigint REFERENCES price_observations,
  ADD COLUMN after_price_id  bigint REFERENCES price_observations;

CREATE FUNCTION price_sides_are_list_prices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.before_price_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM price_observations WHERE observation_id = NEW.before_price_id AND product_id = NEW.product_id AND price_basis = 'list'))
     OR (NEW.after_price_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM price_observations WHERE observation_id = NEW.after_price_id AND product_id = NEW.product_id AND price_basis = 'list')) THEN
    RAISE EXCEPTION 'a price change compares two list prices of the same product' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER candidates_price_sides BEFORE INSERT OR UPDATE ON candidates
  FOR EACH ROW EXECUTE FUNCTION price_sides_are_list_prices();
CREATE TRIGGER signals_price_sides BEFORE INSERT OR UPDATE ON signals
  FOR EACH ROW EXECUTE FUNCTION price_sides_are_list_prices();

-- ---------------------------------------------------------------------------
-- A closed ledger edition holds every Signal released in its period, so no
-- Signal may be released into a period whose edition is already closed.
-- ---------------------------------------------------------------------------
CREATE FUNCTION signals_not_into_closed_edition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.released_on IS NOT NULL AND OLD.released_on IS NULL AND EXISTS (
       SELECT 1 FROM ledger_editions WHERE status = 'closed' AND period = to_char(NEW.released_on, 'YYYY-MM')) THEN
    RAISE EXCEPTION 'the ledger edition for % is closed; a Signal cannot be released into it', to_char(NEW.released_on, 'YYYY-MM')
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER signals_not_into_closed_edition BEFORE UPDATE ON signals
  FOR EACH ROW EXECUTE FUNCTION signals_not_into_closed_edition();

-- Down Migration
DROP TRIGGER signals_not_into_closed_edition ON signals;
DROP FUNCTION signals_not_into_closed_edition();
DROP TRIGGER signals_price_sides ON signals;
DROP TRIGGER candidates_price_sides ON candidates;
DROP FUNCTION price_sides_are_list_prices();
ALTER TABLE signals DROP COLUMN before_price_id, DROP COLUMN after_price_id;
ALTER TABLE candidates DROP COLUMN before_price_id, DROP COLUMN after_price_id;
DROP TABLE state_readings;
