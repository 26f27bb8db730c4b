/**
 * Events (issue 31): the outbox `events`, written in the transaction of the change that
 * caused it; webhook subscriptions and one delivery row per (subscription, event), inserted
 * with the event, claimed by whichever server's worker gets it first; alert rules of a
 * project with each run's state of a rule (fires once per crossing); the time up to which a
 * user has read the dashboard's notifications (events marked `notify`: alerts, failed and
 * stale runs).
 */
export const eventsMigration = `
CREATE TABLE events (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  project_id BIGINT REFERENCES projects(id),
  run_id BIGINT,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  notify INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX events_notify ON events (org_id, id) WHERE notify = 1;
CREATE TABLE webhooks (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  project_id BIGINT REFERENCES projects(id),
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  format TEXT NOT NULL,
  secret TEXT NOT NULL,
  failed_deliveries INTEGER NOT NULL DEFAULT 0,
  disabled_at BIGINT,
  created_by BIGINT REFERENCES users(id),
  created_at BIGINT NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (org_id);
CREATE TABLE webhook_deliveries (
  id {{autoId}},
  webhook_id BIGINT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id BIGINT NOT NULL REFERENCES events(id),
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_attempt_at BIGINT,
  last_status_code INTEGER,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, id);
CREATE TABLE alert_rules (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  project_id BIGINT NOT NULL REFERENCES projects(id),
  log_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  threshold DOUBLE PRECISION,
  steps BIGINT,
  goal TEXT,
  created_by BIGINT REFERENCES users(id),
  created_at BIGINT NOT NULL
);
CREATE INDEX alert_rules_project ON alert_rules (project_id, id);
CREATE TABLE alert_rule_states (
  rule_id BIGINT NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
  run_id BIGINT NOT NULL,
  firing INTEGER NOT NULL,
  best DOUBLE PRECISION,
  best_step BIGINT,
  PRIMARY KEY (rule_id, run_id)
);
CREATE TABLE notification_reads (
  user_id BIGINT PRIMARY KEY REFERENCES users(id),
  last_event_id BIGINT NOT NULL
)
`;
