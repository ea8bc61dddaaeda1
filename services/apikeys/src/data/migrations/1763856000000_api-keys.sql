-- Up Migration
-- API keys: the secret is stored only as SHA-256 of the whole key (see docs/apikeys.md: a
-- 256-bit random secret needs no slow KDF); key_prefix identifies the key for lookups and search.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL,
  name varchar(100) NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  key_prefix varchar(32) NOT NULL,
  key_hash char(64) NOT NULL,
  scopes text[] NOT NULL DEFAULT ARRAY['chat']::text[],
  -- Requests per minute, 0 = unlimited. Stored metadata only, never enforced (spec).
  rate_limit integer NOT NULL DEFAULT 1000 CHECK (rate_limit >= 0),
  is_active boolean NOT NULL DEFAULT true,
  expires_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX api_keys_key_prefix_key ON api_keys (key_prefix);
CREATE INDEX api_keys_user_created_idx ON api_keys (user_id, created_at DESC);
CREATE INDEX api_keys_created_idx ON api_keys (created_at DESC);
-- The daily expiry check scans keys by expiry.
CREATE INDEX api_keys_expires_at_idx ON api_keys (expires_at) WHERE expires_at IS NOT NULL;

-- Resource bindings: an empty set means "no restriction".
CREATE TABLE api_key_agents (
  key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  agent_id uuid NOT NULL,
  PRIMARY KEY (key_id, agent_id)
);
CREATE TABLE api_key_workflows (
  key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  workflow_id uuid NOT NULL,
  PRIMARY KEY (key_id, workflow_id)
);

-- Names and icons of agents, fed from Kafka `platform.agent-directory` (no agent service here).
CREATE TABLE agent_directory (
  id uuid PRIMARY KEY,
  name text,
  icon text,
  updated_at timestamptz NOT NULL
);

-- Expiry notices already sent; the unique key makes each notice once-only, whatever reruns.
CREATE TABLE api_key_expiry_notices (
  key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  -- `expiring` (days_remaining 7, 3 or 1) or `expired` (days_remaining 0).
  kind varchar(16) NOT NULL CHECK (kind IN ('expiring', 'expired')),
  days_remaining integer NOT NULL,
  sent_on date NOT NULL,
  PRIMARY KEY (key_id, kind, days_remaining)
);

-- Down Migration
DROP TABLE api_key_expiry_notices;
DROP TABLE agent_directory;
DROP TABLE api_key_workflows;
DROP TABLE api_key_agents;
DROP TABLE api_keys;
