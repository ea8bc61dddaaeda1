import type { Redis } from '@platform/redis';

/**
 * Per-user byte budget of the ephemeral version store (docs/workflows.md "Limits"). The versions
 * share their Redis with sessions and revocations, so one user must not be able to fill it.
 *
 * One ledger per user, under the user's hash tag (`workflows:version-bytes:{<user id>}:…`):
 * `entries`, a sorted set of `<workflow id>/<version id>/<charged bytes>` scored by creation time,
 * and `total`, the sum of the charged bytes. Reserving is one Lua script (check + add), so a
 * parallel burst can never pass the limit; releasing an entry is idempotent (only the `ZREM` that
 * removed it subtracts), so eviction, workflow deletion and pruning may race freely.
 *
 * The ledger lives in another cluster slot than the workflows' key spaces, so it is updated in its
 * own script: a crash between the two steps leaves an entry whose version is gone, which the next
 * refusal prunes (`pruneOldest`), never a version without an entry.
 */

/** What one version is charged beyond its bodies: meta JSON, index entries, key overhead. */
export const VERSION_RECORD_OVERHEAD_BYTES = 1024;

/** Entries checked per pruning pass (oldest first: those are the ones that expired). */
export const PRUNE_BATCH = 100;

/** A version's place in its creator's ledger. */
export interface LedgerEntry {
  workflowId: string;
  versionId: string;
  bytes: number;
}

export const ledgerMember = (entry: LedgerEntry) => `${entry.workflowId}/${entry.versionId}/${entry.bytes}`;

export function parseLedgerMember(member: string): LedgerEntry | null {
  const [workflowId, versionId, bytes] = member.split('/');
  const charged = Number(bytes);
  if (!workflowId || !versionId || !Number.isSafeInteger(charged)) return null;
  return { workflowId, versionId, bytes: charged };
}

/**
 * KEYS: entries, total. ARGV: limit, now (ms), ttl seconds, member… (all or none are added).
 * Returns {1, used after} when reserved (members already present count once), {0, used} refused.
 */
const RESERVE = `
local limit, now, ttl = tonumber(ARGV[1]), ARGV[2], ARGV[3]
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
local adding = 0
local fresh = {}
for i = 4, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    adding = adding + tonumber(string.match(ARGV[i], '/(%d+)$'))
    table.insert(fresh, ARGV[i])
  end
end
if used + adding > limit then return {0, used} end
for _, member in ipairs(fresh) do redis.call('ZADD', KEYS[1], now, member) end
used = redis.call('INCRBY', KEYS[2], adding)
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
return {1, used}
`;

/** KEYS: entries, total. ARGV: member… Subtracts each member that was still there. */
const RELEASE = `
local freed = 0
for i = 1, #ARGV do
  if redis.call('ZREM', KEYS[1], ARGV[i]) == 1 then
    freed = freed + tonumber(string.match(ARGV[i], '/(%d+)$'))
  end
end
if freed == 0 then return 0 end
local left = redis.call('DECRBY', KEYS[2], freed)
if left <= 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return freed
`;

interface BudgetCommands {
  wfvReserveBytes(...keysAndArgs: string[]): Promise<[number, number]>;
  wfvReleaseBytes(...keysAndArgs: string[]): Promise<number>;
}

export type Reservation = { reserved: true; used: number } | { reserved: false; used: number };

export class VersionBudget {
  private readonly scripts: BudgetCommands;

  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {
    redis.defineCommand('wfvReserveBytes', { numberOfKeys: 2, lua: RESERVE });
    redis.defineCommand('wfvReleaseBytes', { numberOfKeys: 2, lua: RELEASE });
    this.scripts = redis as unknown as BudgetCommands;
  }

  private keys(userId: string): [string, string] {
    const base = `workflows:version-bytes:{${userId}}:`;
    return [base + 'entries', base + 'total'];
  }

  /** Adds the entries to the user's ledger unless that would pass `limit` bytes (all or none). */
  async reserve(userId: string, entries: LedgerEntry[], limit: number): Promise<Reservation> {
    const [reserved, used] = await this.scripts.wfvReserveBytes(
      ...this.keys(userId),
      String(limit),
      String(Date.now()),
      String(this.ttlSeconds),
      ...entries.map(ledgerMember),
    );
    return { reserved: reserved === 1, used };
  }

  /** Removes entries (each counted once however often it is released). Resolves to bytes freed. */
  async release(userId: string, entries: LedgerEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    return this.scripts.wfvReleaseBytes(...this.keys(userId), ...entries.map(ledgerMember));
  }

  /**
   * A write by the user keeps their ledger as long as the workflows they write to (30 days after
   * the last write): the ledger expires only when its versions can have expired too.
   */
  async touch(userId: string): Promise<void> {
    const [entries, total] = this.keys(userId);
    await this.redis.multi().expire(entries, this.ttlSeconds).expire(total, this.ttlSeconds).exec();
  }

  /** The user's oldest entries (at most PRUNE_BATCH), for pruning those whose version is gone. */
  async oldest(userId: string): Promise<LedgerEntry[]> {
    const members = await this.redis.zrange(this.keys(userId)[0], 0, PRUNE_BATCH - 1);
    return members.map(parseLedgerMember).filter((entry): entry is LedgerEntry => entry !== null);
  }

  async used(userId: string): Promise<number> {
    return Number((await this.redis.get(this.keys(userId)[1])) ?? 0);
  }
}
