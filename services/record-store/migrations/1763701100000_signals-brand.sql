-- Up Migration
-- The feed filtered by brand must be an index range like the unfiltered feed.
-- Resolving a brand to its products and reading each product's Signals
-- collects, joins and sorts every Signal of the brand (about 3,400 rows for a
-- brand of 500 products) to return one page of 20. A Signal therefore carries
-- its product's brand, kept by the database itself: set on insert, and moved
-- with the product if the product is ever filed under another brand.
ALTER TABLE signals ADD COLUMN brand_id text REFERENCES brands;
-- Filling the new column changes no answer: it is not a new record version.
ALTER TABLE signals DISABLE TRIGGER signals_bumps_record_version;
UPDATE signals s SET brand_id = p.brand_id FROM products p WHERE p.product_id = s.product_id;
ALTER TABLE signals ENABLE TRIGGER signals_bumps_record_version;
ALTER TABLE signals ALTER COLUMN brand_id SET NOT NULL;

CREATE FUNCTION signals_brand_of_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT brand_id INTO NEW.brand_id FROM products WHERE product_id = NEW.product_id;
  RETURN NEW;
END $$;
CREATE TRIGGER signals_brand_of_product BEFORE INSERT OR UPDATE OF product_id, brand_id ON signals
  FOR EACH ROW EXECUTE FUNCTION signals_brand_of_product();

CREATE FUNCTION products_brand_moves_signals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE signals SET brand_id = NEW.brand_id WHERE product_id = NEW.product_id;
  RETURN NULL;
END $$;
CREATE TRIGGER products_brand_moves_signals AFTER UPDATE OF brand_id ON products
  FOR EACH ROW WHEN (OLD.brand_id IS DISTINCT FROM NEW.brand_id)
  EXECUTE FUNCTION products_brand_moves_signals();

CREATE INDEX signals_brand_feed ON signals (brand_id, released_on DESC, signal_id DESC) WHERE released_on IS NOT NULL;

-- Down Migration
DROP INDEX IF EXISTS signals_brand_feed;
DROP TRIGGER IF EXISTS products_brand_moves_signals ON products;
DROP FUNCTION IF EXISTS products_brand_moves_signals();
DROP TRIGGER IF EXISTS signals_brand_of_product ON signals;
DROP FUNCTION IF EXISTS signals_brand_of_product();
ALTER TABLE signals DROP COLUMN IF EXISTS brand_id;
