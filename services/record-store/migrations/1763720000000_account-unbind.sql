-- Up Migration
-- An organisation is bound to one account (watch capabilities need exactly
-- one). `account create` refuses a second; `account unbind` repairs an
-- organisation that already has more than one: the account row stays (its
-- alerts and their history reference it), it only stops being bound.
ALTER TABLE accounts ALTER COLUMN org_id DROP NOT NULL;
ALTER TABLE accounts ADD COLUMN unbound_from text REFERENCES organizations;
ALTER TABLE accounts ADD COLUMN unbound_at timestamptz;
ALTER TABLE accounts ADD CONSTRAINT accounts_bound_or_unbound CHECK ((org_id IS NULL) = (unbound_at IS NOT NULL));

-- Down Migration
ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_bound_or_unbound;
ALTER TABLE accounts DROP COLUMN IF EXISTS unbound_at;
ALTER TABLE accounts DROP COLUMN IF EXISTS unbound_from;
