-- Up Migration

-- ---------------------------------------------------------------------------
-- Ingredient identity from a label's own identifiers (decision 1500).
--
-- A canonical ingredient carries its identifiers: the FDA's Unique Ingredient
-- Identifiers (UNII) of the substances it covers, the DSLD ingredient groups
-- (alone, or with one form: "Creatine" as "Creatine Monohydrate") DSLD files
-- its rows under, and its names (ingredient_synonyms). A declared line is
-- identified by its UNII, then its group (and form), then its normalised
-- name. Each identifier names one ingredient, so a claim never makes a
-- second one ambiguous: a UNII or a (group, form) is a primary key.
-- ---------------------------------------------------------------------------
CREATE TABLE ingredient_uniis (
  unii          text PRIMARY KEY CHECK (unii ~ '^[0-9A-Z]{10}$'),
  ingredient_id text NOT NULL REFERENCES ingredients,
  -- Where the code came from: a real label row, or a recorded answer of FDA's substance registry.
  source        text NOT NULL CHECK (length(source) BETWEEN 3 AND 400)
);
CREATE INDEX ingredient_uniis_ingredient ON ingredient_uniis (ingredient_id);

-- form_norm '' is a claim on the whole group; otherwise only rows of that group naming that form.
CREATE TABLE ingredient_groups (
  group_name    text NOT NULL,
  group_norm    text NOT NULL CHECK (group_norm <> ''),
  form_name     text,
  form_norm     text NOT NULL DEFAULT '',
  ingredient_id text NOT NULL REFERENCES ingredients,
  PRIMARY KEY (group_norm, form_norm),
  CHECK ((form_name IS NULL) = (form_norm = ''))
);
CREATE INDEX ingredient_groups_ingredient ON ingredient_groups (ingredient_id);

-- What a declared line carries besides its printed name: the identifiers the
-- source gave it (DSLD's uniiCode, placeholders "0"/"1"/"" stored as NULL;
-- ingredientGroup; the names of its forms), and how its identity was made:
-- 'unii', 'group' or 'name' by the rules (re-derived whenever identity is
-- curated), 'capture' when the capture named the ingredient itself (kept as
-- given; a writer that sets an ingredient and no basis means the same), NULL
-- when unidentified. Declared facts never change; the identity may. Lines
-- read before this migration keep theirs ('capture').
ALTER TABLE declared_ingredients
  ADD COLUMN unii text CHECK (unii IS NULL OR unii ~ '^[0-9A-Z]{10}$'),
  ADD COLUMN ingredient_group text,
  ADD COLUMN forms text[] NOT NULL DEFAULT '{}',
  ADD COLUMN identified_by text CHECK (identified_by IN ('unii', 'group', 'name', 'capture'));
-- Only where there are such lines: an UPDATE of nothing would still make a record version.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM declared_ingredients WHERE ingredient_id IS NOT NULL) THEN
    PERFORM set_config('record.change_reason', 'identity basis of lines read before decision 1500', true);
    UPDATE declared_ingredients SET identified_by = 'capture' WHERE ingredient_id IS NOT NULL;
  END IF;
END $$;
-- The unidentified lines, listed for curation.
CREATE INDEX declared_ingredients_unidentified ON declared_ingredients (declared_name) WHERE ingredient_id IS NULL;

-- ---------------------------------------------------------------------------
-- Every change of identity (catalogue applied, ingredient added, alias or
-- identifier attached), in order: who, what, how many lines it re-identified.
-- Readers that cache the identity rules (the monitor) reload when the newest
-- change_id moves. Not a Record table: the changes it logs are (ingredients,
-- ingredient_synonyms, ingredient_uniis, ingredient_groups, declared_ingredients).
-- ---------------------------------------------------------------------------
CREATE TABLE ingredient_identity_changes (
  change_id   bigserial PRIMARY KEY,
  changed_at  timestamptz NOT NULL DEFAULT now(),
  changed_by  text NOT NULL,
  action      text NOT NULL,
  detail      jsonb NOT NULL DEFAULT '{}'
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['ingredient_uniis', 'ingredient_groups']
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version()',
      t || '_bumps_record_version', t);
  END LOOP;
END $$;

-- Down Migration
DROP TABLE ingredient_identity_changes;
DROP INDEX declared_ingredients_unidentified;
ALTER TABLE declared_ingredients DROP COLUMN unii, DROP COLUMN ingredient_group, DROP COLUMN forms, DROP COLUMN identified_by;
DROP TABLE ingredient_groups;
DROP TABLE ingredient_uniis;
