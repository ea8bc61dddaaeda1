-- Up Migration
-- Issue 24: what a code node's `console` printed (docs/workflows.md "code"):
-- {lines: [{level, text}], truncated}. NULL for every other node type. Bounded by the sandbox
-- (64 KiB and 1000 lines per node).
ALTER TABLE workflow_node_executions ADD COLUMN IF NOT EXISTS logs jsonb;

-- Down Migration
ALTER TABLE workflow_node_executions DROP COLUMN IF EXISTS logs;
