-- Up Migration

-- Unwatching cancels the account's pending alerts for that product; this
-- keeps it an index lookup however many alerts the account has received.
CREATE INDEX alerts_pending_account_product ON alerts (account_id, product_id) WHERE status = 'pending';

-- The email worker's claim lease: a 'sending' alert whose claim is older than
-- the lease belongs to a worker that died mid-send.
CREATE INDEX alerts_sending_claimed ON alerts (claimed_at) WHERE status = 'sending';

-- Down Migration
DROP INDEX IF EXISTS alerts_sending_claimed;
DROP INDEX IF EXISTS alerts_pending_account_product;
