-- Up Migration

-- Unwatching cancels the account's pending alerts for that product; this
-- keeps it an index lookup however many alerts the account has received.
CREATE INDEX alerts_pending_account_product ON alerts (account_id, product_id) WHERE status = 'pending';

-- Down Migration
DROP INDEX IF EXISTS alerts_pending_account_product;
