import { withTransaction } from '@platform/db';
import type { Redis } from '@platform/redis';
import { writeAudit } from '../../data/audit-repository.js';
import { notifyUser } from '../identity-events.js';
import type { AuthDeps } from './auth-context.js';

/** Spec "Login anomaly": the last 30 days, at most 10 IPs and 10 user agents per user. */
export const ANOMALY_WINDOW_MS = 30 * 86_400_000;
export const ANOMALY_MAX_ENTRIES = 10;
const MAX_AGENT_LENGTH = 512;

export const knownIpsKey = (userId: string) => `auth:anomaly:${userId}:ips`;
export const knownAgentsKey = (userId: string) => `auth:anomaly:${userId}:agents`;

export interface AnomalyResult {
  /** False when Redis failed and the check was skipped. */
  checked: boolean;
  newIp: boolean;
  newUserAgent: boolean;
}

/**
 * Records this login's IP and user agent and reports whether either is outside the user's known
 * set. Each set is a sorted set scored by last-seen time: entries older than 30 days are dropped,
 * and only the 10 most recent are kept (the oldest evicted). One MULTI, so the membership read
 * sees the state before this login's write. A user with no history (the first-ever login, or no
 * login within 30 days) is never flagged: there is nothing to compare with.
 */
export async function recordLoginOrigin(
  redis: Redis,
  userId: string,
  ip: string,
  userAgent: string,
  now = Date.now(),
): Promise<Omit<AnomalyResult, 'checked'>> {
  const ipMember = ip || '(unknown)';
  const agentMember = userAgent.slice(0, MAX_AGENT_LENGTH) || '(none)';
  const cutoff = now - ANOMALY_WINDOW_MS;
  const ips = knownIpsKey(userId);
  const agents = knownAgentsKey(userId);
  const results = await redis
    .multi()
    .zremrangebyscore(ips, '-inf', cutoff)
    .zremrangebyscore(agents, '-inf', cutoff)
    .zcard(ips)
    .zscore(ips, ipMember)
    .zcard(agents)
    .zscore(agents, agentMember)
    .zadd(ips, now, ipMember)
    .zadd(agents, now, agentMember)
    .zremrangebyrank(ips, 0, -(ANOMALY_MAX_ENTRIES + 1))
    .zremrangebyrank(agents, 0, -(ANOMALY_MAX_ENTRIES + 1))
    .pexpire(ips, ANOMALY_WINDOW_MS)
    .pexpire(agents, ANOMALY_WINDOW_MS)
    .exec();
  if (!results) throw new Error('login anomaly transaction aborted');
  const failed = results.find(([error]) => error);
  if (failed) throw failed[0]!;
  const value = (index: number) => results[index]![1];
  const knownIps = Number(value(2));
  const knownAgents = Number(value(4));
  return {
    newIp: knownIps > 0 && value(3) === null,
    newUserAgent: knownAgents > 0 && value(5) === null,
  };
}

/**
 * The login-anomaly check run on every completed login: a new IP or user agent sends
 * `security.login_anomaly` to the user (in the background). Redis unavailable → skipped and
 * logged; the login goes on.
 */
export async function checkLoginAnomaly(
  deps: Pick<AuthDeps, 'redis' | 'pool' | 'producer' | 'logger'>,
  userId: string,
  ip: string,
  userAgent: string,
): Promise<AnomalyResult> {
  let result: Omit<AnomalyResult, 'checked'>;
  try {
    result = await recordLoginOrigin(deps.redis, userId, ip, userAgent);
  } catch (err) {
    deps.logger.warn({ err, user_id: userId }, 'login anomaly check skipped: Redis unavailable');
    return { checked: false, newIp: false, newUserAgent: false };
  }
  if (result.newIp || result.newUserAgent) {
    void reportAnomaly(deps, userId, ip, userAgent, result);
  }
  return { checked: true, ...result };
}

async function reportAnomaly(
  deps: Pick<AuthDeps, 'pool' | 'producer' | 'logger'>,
  userId: string,
  ip: string,
  userAgent: string,
  result: Omit<AnomalyResult, 'checked'>,
): Promise<void> {
  const what = [result.newIp && 'a new IP address', result.newUserAgent && 'a new device or browser']
    .filter(Boolean)
    .join(' and ');
  // The audit row and the notification are stored together; neither may fail the login.
  await withTransaction(deps.pool, async (tx) => {
    await writeAudit(tx, {
      actorUserId: userId,
      action: 'login.anomaly',
      targetType: 'user',
      targetId: userId,
      ip,
      userAgent,
      details: { new_ip: result.newIp, new_user_agent: result.newUserAgent },
    });
    await notifyUser(tx, {
      type: 'security.login_anomaly',
      userId,
      title: 'New sign-in to your account',
      content: `Your account was signed in from ${what} (IP ${ip || 'unknown'}). If this was not you, change your password.`,
      level: 'high',
      data: { ip, user_agent: userAgent, new_ip: result.newIp, new_user_agent: result.newUserAgent },
    });
  }).catch((err: unknown) => deps.logger.error({ err }, 'login anomaly could not be recorded'));
}
