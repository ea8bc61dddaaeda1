import { API_KEY_SCOPES, type apikeysV1 } from '@platform/contracts';
import { findAgents } from '../../data/agent-directory-repository.js';
import type { ApiKeyRow } from '../../data/api-keys-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';

type ViewDeps = Pick<ApiKeysDependencies, 'pool' | 'users' | 'workflows' | 'lastUsed' | 'logger'>;

const iso = (date: Date | null) => (date ? date.toISOString() : '');

/** Stored scope names → the enum values messages carry (a name this build does not know is left out). */
export function scopeValues(names: readonly string[]): apikeysV1.ApiKeyScope[] {
  return names.filter((name) => API_KEY_SCOPES.has(name)).map((name) => API_KEY_SCOPES.toProto(name));
}

/**
 * Rows → full records (every field; the gateway presents the spec's subset per route): owner
 * usernames from identity, agent names and icons from the agent directory, workflow names from the
 * workflows service, and uses still in the last-used buffer, in four batched lookups for the page.
 */
export async function toRecords(deps: ViewDeps, rows: ApiKeyRow[]): Promise<apikeysV1.ApiKeyRecord[]> {
  if (rows.length === 0) return [];
  const [usernames, agents, workflows, pending] = await Promise.all([
    deps.users.usernames(rows.map((r) => r.user_id)).catch((err: unknown) => {
      // The list still answers when identity is down; `user.username` is then empty (null).
      deps.logger.warn({ err }, 'owner usernames unavailable');
      return new Map<string, string>();
    }),
    findAgents(deps.pool, [...new Set(rows.flatMap((r) => r.agent_ids))]),
    deps.workflows.names(rows.flatMap((r) => r.workflow_ids)).catch((err: unknown) => {
      // As above: names are then null, and `deleted` false (not known to be deleted).
      deps.logger.warn({ err }, 'workflow names unavailable');
      return new Map<string, { name: string; deleted: boolean }>();
    }),
    deps.lastUsed.pending(rows.map((r) => r.id)).catch(() => new Map<string, Date>()),
  ]);
  return rows.map((row) => {
    const buffered = pending.get(row.id);
    const lastUsed =
      buffered && (!row.last_used_at || buffered > row.last_used_at) ? buffered : row.last_used_at;
    return {
      id: row.id,
      name: row.name,
      key_prefix: row.key_prefix,
      user_id: row.user_id,
      user: { id: row.user_id, username: usernames.get(row.user_id) ?? '' },
      scopes: scopeValues(row.scopes),
      rate_limit: row.rate_limit,
      is_active: row.is_active,
      last_used_at: iso(lastUsed),
      expires_at: iso(row.expires_at),
      agents: row.agent_ids.map((id) => {
        const agent = agents.get(id);
        return { id, name: agent?.name ?? '', icon: agent?.icon ?? '', known: Boolean(agent?.name) };
      }),
      // A deleted workflow keeps its binding (an empty list would mean "all workflows").
      workflows: row.workflow_ids.map((id) => {
        const workflow = workflows.get(id);
        return { id, name: workflow?.name ?? '', deleted: workflow?.deleted ?? false };
      }),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  });
}

export async function toRecord(deps: ViewDeps, row: ApiKeyRow): Promise<apikeysV1.ApiKeyRecord> {
  return (await toRecords(deps, [row]))[0]!;
}

/**
 * A row → the key's own fields, with no lookups: for the routes that show neither agents nor the
 * last use (create, activate/deactivate). `username` is the owner's when the caller is the owner.
 */
export function toOwnFields(row: ApiKeyRow, username = ''): apikeysV1.ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    user_id: row.user_id,
    user: { id: row.user_id, username },
    scopes: scopeValues(row.scopes),
    rate_limit: row.rate_limit,
    is_active: row.is_active,
    last_used_at: '',
    expires_at: iso(row.expires_at),
    agents: [],
    workflows: [],
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
