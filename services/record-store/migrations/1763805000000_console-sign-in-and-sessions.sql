-- Up Migration
-- Issue 26 (docs/decisions/1900-console-sessions.md).
--
-- Sign-in attempts, counted per client address and per operator in fixed
-- windows, shared by every console replica. The layout is rate-limiter-flexible's
-- own for Postgres (key, points, expire in ms), created here rather than by the
-- library, so the schema changes only through migrations.
CREATE TABLE console_sign_in_limits (
  key    varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);

-- The session-signing key no longer lives in the database: anyone who could read
-- it could forge a cookie for any session id in console_sessions. It now comes
-- from CONSOLE_SESSION_SECRET (a Kubernetes Secret, or .run locally).
DROP TABLE console_settings;

-- Every session signed with that key, and every one without a sign-in time
-- (which the absolute lifetime needs), ends: operators sign in again.
DELETE FROM console_sessions;

-- Down Migration
CREATE TABLE IF NOT EXISTS console_settings (
  name  text PRIMARY KEY,
  value text NOT NULL
);
DROP TABLE IF EXISTS console_sign_in_limits;
