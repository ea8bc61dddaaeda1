import { setTimeout as sleep } from 'node:timers/promises';
import { VERSION_STATUSES, type VersionStatusName } from '@platform/contracts';
import { RedisLock, type Redis } from '@platform/redis';
import { CREATE_VERSION, SET_STATUS } from './version-store-scripts.js';
import { VERSION_RECORD_OVERHEAD_BYTES, VersionBudget, type LedgerEntry } from './version-budget.js';

/**
 * The ephemeral `/workflow-versions` store. It lives in Redis, not in process memory and not in
 * Postgres: every replica must see the same versions (the HPA runs at least two), the spec keeps
 * them out of the persisted history, and they expire 30 days after the last write to their
 * workflow. One key space per workflow (`workflows:versions:{<workflow id>}:…`; the hash tag keeps
 * it in one cluster slot so the Lua scripts may touch all of it). docs/workflows.md.
 */
export type VersionStatus = VersionStatusName;
export const VERSION_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Versions one workflow keeps unless configured (VERSIONS_MAX_PER_WORKFLOW). */
export const DEFAULT_MAX_VERSIONS_PER_WORKFLOW = 100;

/** A version without its bodies (what the history lists). */
export interface VersionMeta {
  id: string;
  workflow_id: string;
  description: string;
  status: VersionStatus;
  created_by: string;
  created_at: string;
  updated_at: string;
  node_count: number;
  edge_count: number;
  /** The version it was copied from (rollback, fork); null when created directly. */
  source_version_id: string | null;
  /** Bytes charged to `created_by`'s budget (version-budget.ts); absent on older records. */
  charged_bytes?: number;
}

/** The bodies, as the JSON text they were stored as. */
export interface VersionBody {
  nodes: string;
  edges: string;
  config: string;
}

export interface StoredVersion extends VersionMeta {
  body: VersionBody;
}

export interface VersionStats {
  total: number;
  draft: number;
  published: number;
  archived: number;
  first_version_at: string | null;
  latest_version_at: string | null;
}

/** What a version costs its creator's budget: its bodies plus the record's fixed overhead. */
export function chargedBytes(body: VersionBody): number {
  const text = (value: string) => Buffer.byteLength(value, 'utf8');
  return text(body.nodes) + text(body.edges) + text(body.config) + VERSION_RECORD_OVERHEAD_BYTES;
}

/** The ledger entry of a version (null for records older than the budget: nothing to release). */
export function ledgerEntryOf(meta: Partial<VersionMeta>): LedgerEntry | null {
  if (!meta.workflow_id || !meta.id || typeof meta.charged_bytes !== 'number') return null;
  return { workflowId: meta.workflow_id, versionId: meta.id, bytes: meta.charged_bytes };
}

interface ScriptCommands {
  wfvCreateVersion(...keysAndArgs: string[]): Promise<[number, string[], string[]]>;
  wfvSetStatus(...keysAndArgs: string[]): Promise<string[] | null>;
}

const LOCK_TTL_MS = 10_000;

export class VersionStore {
  private readonly scripts: ScriptCommands;
  private readonly lock: RedisLock;
  /** Per-user byte budget: reserved by the use cases, released here when versions go. */
  readonly budget: VersionBudget;
  /** Per workflow: the tail of this process's queue for its version lock. */
  private readonly localQueue = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly options: { ttlSeconds?: number; lockWaitMs?: number; maxPerWorkflow?: number } = {},
  ) {
    redis.defineCommand('wfvCreateVersion', { numberOfKeys: 7, lua: CREATE_VERSION });
    redis.defineCommand('wfvSetStatus', { numberOfKeys: 7, lua: SET_STATUS });
    this.scripts = redis as unknown as ScriptCommands;
    this.lock = new RedisLock(redis, { prefix: '' });
    this.budget = new VersionBudget(redis, options.ttlSeconds ?? VERSION_TTL_SECONDS);
  }

  private base(workflowId: string): string {
    return `workflows:versions:{${workflowId}}:`;
  }

  /** meta, body, all, draft, published, archived, seq: the KEYS of every script. */
  private keys(workflowId: string): string[] {
    const base = this.base(workflowId);
    return ['meta', 'body', 'all', ...VERSION_STATUSES.names, 'seq'].map((name) => base + name);
  }

  private statusKey(workflowId: string, status: VersionStatus | undefined): string {
    return this.base(workflowId) + (status ?? 'all');
  }

  private get ttl(): string {
    return String(this.options.ttlSeconds ?? VERSION_TTL_SECONDS);
  }

  /**
   * Adds a version. When it is created `published`, every other published version becomes
   * `demoteTo` in the same atomic step. When the workflow then holds more than its cap, the oldest
   * versions that are not published are evicted in that same step, and their creators' budgets
   * released. Resolves to the ids demoted.
   */
  async create(meta: VersionMeta, body: VersionBody, demoteTo?: VersionStatus): Promise<string[]> {
    const [, demoted, evicted] = await this.scripts.wfvCreateVersion(
      ...this.keys(meta.workflow_id),
      meta.id,
      JSON.stringify(meta),
      demoteTo ?? '',
      meta.created_at,
      this.ttl,
      body.nodes,
      body.edges,
      body.config,
      String(this.options.maxPerWorkflow ?? DEFAULT_MAX_VERSIONS_PER_WORKFLOW),
    );
    await this.releaseBudgets(evicted.map((raw) => JSON.parse(raw) as Partial<VersionMeta>));
    return demoted.map(String);
  }

  /** Gives the bytes of versions that are gone back to their creators. */
  private async releaseBudgets(gone: Partial<VersionMeta>[]): Promise<void> {
    const byCreator = new Map<string, LedgerEntry[]>();
    for (const meta of gone) {
      const entry = ledgerEntryOf(meta);
      if (entry && meta.created_by)
        byCreator.set(meta.created_by, [...(byCreator.get(meta.created_by) ?? []), entry]);
    }
    await Promise.all([...byCreator].map(([userId, entries]) => this.budget.release(userId, entries)));
  }

  /** Which of the entries' versions still exist (one round trip), for pruning a ledger. */
  async existing(entries: LedgerEntry[]): Promise<boolean[]> {
    if (entries.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const entry of entries) pipeline.hexists(this.base(entry.workflowId) + 'meta', entry.versionId);
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, value]) => error !== null || value === 1);
  }

  /**
   * Moves a version to `to`; publishing demotes the previously published one to `demoteTo`.
   * Null when the version does not exist (in this workflow).
   */
  async setStatus(
    workflowId: string,
    id: string,
    to: VersionStatus,
    now: string,
    demoteTo: VersionStatus = 'archived',
  ): Promise<{ meta: VersionMeta; demoted: string[] } | null> {
    const result = await this.scripts.wfvSetStatus(...this.keys(workflowId), id, to, demoteTo, now, this.ttl);
    if (!result) return null;
    const [meta, ...demoted] = result;
    return { meta: JSON.parse(meta!) as VersionMeta, demoted };
  }

  async getMeta(workflowId: string, id: string): Promise<VersionMeta | null> {
    const raw = await this.redis.hget(this.base(workflowId) + 'meta', id);
    return raw ? (JSON.parse(raw) as VersionMeta) : null;
  }

  async get(workflowId: string, id: string): Promise<StoredVersion | null> {
    const [version] = await this.getMany(workflowId, [id]);
    return version ?? null;
  }

  /** Several versions in one round trip (a diff's two); null for each unknown id. */
  async getMany(workflowId: string, ids: string[]): Promise<(StoredVersion | null)[]> {
    const base = this.base(workflowId);
    const multi = this.redis.multi();
    for (const id of ids) {
      multi.hget(base + 'meta', id).hmget(base + 'body', `${id}|nodes`, `${id}|edges`, `${id}|config`);
    }
    const replies = ((await multi.exec()) ?? []).map(([, value]) => value);
    return ids.map((_, index) => {
      const meta = replies[2 * index] as string | null;
      const [nodes, edges, config] = replies[2 * index + 1] as (string | null)[];
      if (!meta || nodes == null || edges == null || config == null) return null;
      return { ...(JSON.parse(meta) as VersionMeta), body: { nodes, edges, config } };
    });
  }

  /** Newest first (the order of creation), optionally of one status only. */
  async history(
    workflowId: string,
    page: { limit: number; offset: number; status?: VersionStatus },
  ): Promise<{ items: VersionMeta[]; total: number }> {
    const index = this.statusKey(workflowId, page.status);
    const [[, total], [, ids]] = (await this.redis
      .multi()
      .zcard(index)
      .zrevrange(index, page.offset, page.offset + page.limit - 1)
      .exec()) as [[null, number], [null, string[]]];
    if (ids.length === 0) return { items: [], total };
    const metas = await this.redis.hmget(this.base(workflowId) + 'meta', ...ids);
    // A version whose workflow was deleted in between is simply absent.
    const items = metas
      .filter((raw): raw is string => raw !== null)
      .map((raw) => JSON.parse(raw) as VersionMeta);
    return { items, total };
  }

  async stats(workflowId: string): Promise<VersionStats> {
    const all = this.statusKey(workflowId, undefined);
    const [[, total], [, draft], [, published], [, archived], [, first], [, latest]] = (await this.redis
      .multi()
      .zcard(all)
      .zcard(this.statusKey(workflowId, 'draft'))
      .zcard(this.statusKey(workflowId, 'published'))
      .zcard(this.statusKey(workflowId, 'archived'))
      .zrange(all, 0, 0)
      .zrange(all, -1, -1)
      .exec()) as [
      [null, number],
      [null, number],
      [null, number],
      [null, number],
      [null, string[]],
      [null, string[]],
    ];
    const ends = [...first, ...latest];
    const metas = ends.length > 0 ? await this.redis.hmget(this.base(workflowId) + 'meta', ...ends) : [];
    const createdAt = (raw: string | null | undefined) =>
      raw ? (JSON.parse(raw) as VersionMeta).created_at : null;
    return {
      total,
      draft,
      published,
      archived,
      first_version_at: createdAt(metas[0]),
      latest_version_at: createdAt(metas[metas.length - 1]),
    };
  }

  /** The published version's id (at most one exists), or null. */
  async publishedId(workflowId: string): Promise<string | null> {
    const [id] = await this.redis.zrange(this.statusKey(workflowId, 'published'), 0, 0);
    return id ?? null;
  }

  /**
   * Every version of the workflow (its whole key space), their bytes given back to their creators;
   * for the workflow's delete. The meta hash holds at most the per-workflow cap.
   */
  async deleteAllVersions(workflowId: string): Promise<number> {
    const metas = await this.redis.hvals(this.base(workflowId) + 'meta');
    const deleted = await this.redis.del(...this.keys(workflowId), this.base(workflowId) + 'lock');
    await this.releaseBudgets(metas.map((raw) => JSON.parse(raw) as Partial<VersionMeta>));
    return deleted;
  }

  /**
   * Runs `fn` holding the workflow's short version lock, waiting for it up to `lockWaitMs`
   * (default 10 s); resolves to `{ ran: false }` when it never came free. Publish, archive and
   * rollback write to two stores (the workflow row in Postgres, the version state here), so they
   * are serialized per workflow: the workflow's definition always matches the last one published.
   * Callers in this process queue locally first (in arrival order), so only one of them at a time
   * polls Redis: a burst on one replica is served fairly instead of by whoever polls luckiest.
   */
  async withWorkflowLock<T>(
    workflowId: string,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }> {
    const deadline = Date.now() + (this.options.lockWaitMs ?? 10_000);
    const previous = this.localQueue.get(workflowId) ?? Promise.resolve();
    let done!: () => void;
    const mine = previous.then(() => new Promise<void>((resolve) => (done = resolve)));
    this.localQueue.set(workflowId, mine);
    try {
      await previous;
      return await this.runLocked(workflowId, deadline, fn);
    } finally {
      done();
      if (this.localQueue.get(workflowId) === mine) this.localQueue.delete(workflowId);
    }
  }

  private async runLocked<T>(
    workflowId: string,
    deadline: number,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }> {
    const key = this.base(workflowId) + 'lock';
    let pause = 5;
    for (;;) {
      const token = await this.lock.acquire(key, LOCK_TTL_MS);
      if (token !== null) {
        try {
          return { ran: true, value: await fn() };
        } finally {
          await this.lock.release(key, token).catch(() => undefined);
        }
      }
      if (Date.now() >= deadline) return { ran: false };
      // Jittered, growing pauses: replicas waiting for the same workflow do not poll in lockstep.
      await sleep(pause + Math.random() * pause);
      pause = Math.min(pause * 2, 50);
    }
  }
}
