-- Up Migration

-- Lookup paths of the record service (services/record). resolve_product and
-- get_product_record must answer in the same time on a 100k-product Record as
-- on the demo Record, so every path they take is an index lookup; search_record
-- matches words inside names, which needs trigram indexes.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- "Brand + product name" and "brand + alias": the brand is found by its
-- normalised name, then the product within that brand.
CREATE INDEX products_brand_name_norm ON products (brand_id, name_norm);

-- The latest history state of a product is the one observed last.
CREATE INDEX history_states_product_latest ON history_states (product_id, observed_to DESC, observed_from DESC, state_id DESC);

-- Products whose latest state declares an ingredient (search by ingredient).
CREATE INDEX declared_ingredients_ingredient_state ON declared_ingredients (ingredient_id, state_id);

-- Words inside names, aliases and brands for free-text search.
CREATE INDEX products_name_norm_trgm ON products USING gin (name_norm gin_trgm_ops);
CREATE INDEX product_aliases_alias_norm_trgm ON product_aliases USING gin (alias_norm gin_trgm_ops);
CREATE INDEX brands_name_norm_trgm ON brands USING gin (name_norm gin_trgm_ops);

-- Down Migration
DROP INDEX IF EXISTS brands_name_norm_trgm;
DROP INDEX IF EXISTS product_aliases_alias_norm_trgm;
DROP INDEX IF EXISTS products_name_norm_trgm;
DROP INDEX IF EXISTS declared_ingredients_ingredient_state;
DROP INDEX IF EXISTS history_states_product_latest;
DROP INDEX IF EXISTS products_brand_name_norm;
DROP EXTENSION IF EXISTS pg_trgm;
