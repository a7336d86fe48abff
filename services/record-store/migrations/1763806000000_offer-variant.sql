-- Up Migration
-- The variant an offer_page source reads (decision 1008, amended 2026-11-27): a
-- retailer's page that offers several sizes or flavours at different prices
-- names each offer by a sku, GTIN or MPN; a source names the one it is. NULL:
-- the page's one price (offers at different prices are never guessed between).
-- Set when the source is added and never changed, so one source's price history
-- is always one variant's.
ALTER TABLE sources ADD COLUMN variant text
  CONSTRAINT sources_variant_offer_page CHECK (variant IS NULL OR (kind = 'offer_page' AND length(variant) BETWEEN 1 AND 120));

-- Down Migration
ALTER TABLE sources DROP COLUMN IF EXISTS variant;
