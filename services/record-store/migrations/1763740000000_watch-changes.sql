-- Up Migration

-- Every change to a watchlist, with who made it and through which door:
-- the API or MCP (a key of the account's organisation) or the one-click
-- unsubscribe link of an alert email (no key: the signed token named the
-- account). Written by the watch service in the transaction of the change.
CREATE TABLE watch_changes (
  change_id  bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts,
  product_id text NOT NULL REFERENCES products,
  change     text NOT NULL CHECK (change IN ('added', 'removed')),
  via        text NOT NULL CHECK (via IN ('api', 'mcp', 'email_unsubscribe')),
  key_id     text,
  request_id text,
  at         timestamptz NOT NULL DEFAULT now(),
  CHECK ((via = 'email_unsubscribe') = (key_id IS NULL))
);
CREATE INDEX watch_changes_account ON watch_changes (account_id, at);

-- Down Migration
DROP TABLE IF EXISTS watch_changes;
