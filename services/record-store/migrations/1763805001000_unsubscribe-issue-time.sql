-- Up Migration
-- Instants at which this installation began to behave differently, for the
-- rules that must tell what was made before from what was made after.
--
-- unsubscribe_tokens_carry_issue_time (issue 26, decision 1901): from here on
-- every unsubscribe link names when its email was sent, and removes only a
-- watch older than that. A link without an issue time was minted before this
-- instant, so it removes only a watch added before it too.
CREATE TABLE deployment_milestones (
  name       text PRIMARY KEY,
  reached_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO deployment_milestones (name) VALUES ('unsubscribe_tokens_carry_issue_time');

-- Down Migration
DROP TABLE IF EXISTS deployment_milestones;
