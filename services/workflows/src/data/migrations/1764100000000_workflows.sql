-- Up Migration
-- Workflows. JSON values are `json`, not `jsonb`: a definition is kept byte for byte as the client
-- sent it (key order included; docs/workflows.md "stored exactly as given"). Comparisons cast to
-- jsonb, so a PUT that only reorders keys is no change.
CREATE TABLE workflows (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name varchar(200) NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  icon varchar(500),
  visibility varchar(20) NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'team', 'public')),
  team_id uuid,
  owner_id uuid NOT NULL,
  definition json NOT NULL,
  variables json NOT NULL DEFAULT '{}',
  trigger_type varchar(50) NOT NULL DEFAULT 'manual',
  trigger_config json NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  status varchar(20) NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
  presentation_mode varchar(20) CHECK (presentation_mode IN ('simple', 'result_first')),
  -- The snapshot version the last publish pointed at; production runs read it.
  published_version integer,
  published_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflows_owner_idx ON workflows (owner_id, updated_at DESC);
CREATE INDEX workflows_team_idx ON workflows (team_id, updated_at DESC) WHERE team_id IS NOT NULL;
CREATE INDEX workflows_updated_idx ON workflows (updated_at DESC, id DESC);

-- Persisted version snapshots: at most one per (workflow, version), enforced here so concurrent
-- publish / snapshot / restore requests can never write two.
CREATE TABLE workflow_snapshots (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workflow_id uuid NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  version integer NOT NULL,
  description text NOT NULL DEFAULT '',
  definition json NOT NULL,
  variables json NOT NULL,
  trigger_type varchar(50) NOT NULL,
  trigger_config json NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT workflow_snapshots_version_key UNIQUE (workflow_id, version)
);

-- Tombstones of deleted workflows: API keys stay bound to them (an empty binding list would mean
-- "all workflows"), and GetWorkflowNames tells a deleted workflow from one that never existed.
CREATE TABLE deleted_workflows (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  owner_id uuid NOT NULL,
  deleted_by uuid,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE deleted_workflows;
DROP TABLE workflow_snapshots;
DROP TABLE workflows;
