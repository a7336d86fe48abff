-- Up Migration
-- Review console operators: a per-operator credential, printed once by
-- `admin operator add`, stored as a SHA-256 of its secret (the credential is
-- 32 random bytes, so a slow hash adds nothing) and compared in constant time.
CREATE TABLE operators (
  operator_id       text PRIMARY KEY CHECK (operator_id ~ '^op_[0-9a-z]{12}$'),
  name              text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  credential_sha256 text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  disabled_at       timestamptz
);

-- Every console action, with the operator who took it.
CREATE TABLE console_actions (
  action_id     bigserial PRIMARY KEY,
  at            timestamptz NOT NULL DEFAULT now(),
  operator_id   text NOT NULL REFERENCES operators,
  operator_name text NOT NULL,
  action        text NOT NULL,
  target        text,
  outcome       text NOT NULL CHECK (outcome IN ('done', 'refused')),
  detail        jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX console_actions_at ON console_actions (at DESC);

-- Console sessions (express-session through connect-pg-simple: its table layout).
CREATE TABLE console_sessions (
  sid    varchar NOT NULL PRIMARY KEY,
  sess   json NOT NULL,
  expire timestamp(6) NOT NULL
);
CREATE INDEX console_sessions_expire ON console_sessions (expire);

-- The key that signs console session cookies when CONSOLE_SESSION_SECRET is
-- not set: drawn once per database, shared by every console replica.
CREATE TABLE console_settings (
  name  text PRIMARY KEY,
  value text NOT NULL
);

-- Down Migration
DROP TABLE IF EXISTS console_settings;
DROP TABLE IF EXISTS console_sessions;
DROP TABLE IF EXISTS console_actions;
DROP TABLE IF EXISTS operators;
