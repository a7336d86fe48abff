-- Up Migration

-- ---------------------------------------------------------------------------
-- robots.txt as the monitor last read it, per origin, shared by every replica
-- (decision 1006): one replica reads a host's robots.txt once per
-- MONITOR_ROBOTS_TTL_MS and the others use what it read, instead of each
-- replica asking the host again. verdict: 'rules' (body holds the file),
-- 'allow_all' (4xx: no rules), 'unreachable' (5xx or no answer: disallow
-- everything until expires_at, at most a minute). Not a Record table.
-- ---------------------------------------------------------------------------
CREATE TABLE monitor_robots (
  origin     text PRIMARY KEY,
  verdict    text NOT NULL CHECK (verdict IN ('rules', 'allow_all', 'unreachable')),
  body       text,
  fetched_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CHECK ((verdict = 'rules') = (body IS NOT NULL))
);

-- Down Migration
DROP TABLE monitor_robots;
