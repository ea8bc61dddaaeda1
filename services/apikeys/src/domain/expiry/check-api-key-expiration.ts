import type { apikeysV1, notificationEventsV1 } from '@platform/contracts';
import { Topics } from '@platform/kafka';
import { withTransaction } from '@platform/db';
import { enqueueEvent } from '@platform/outbox';
import { calendarDaysBetween, localDate } from '@platform/runtime';
import {
  claimNotice,
  findExpiryCandidates,
  type ExpiryCandidate,
} from '../../data/expiry-notices-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';

export const EXPIRY_TASK = 'tasks.check_api_key_expiration';
/** The spec reminds only at exactly these numbers of days remaining. */
export const REMINDER_DAYS = [7, 3, 1];

type Notice = { kind: 'expiring' | 'expired'; daysRemaining: number };

/** What to send for one active key today, if anything. */
function noticeFor(key: ExpiryCandidate, now: Date): Notice | null {
  if (key.expires_at.getTime() <= now.getTime()) return { kind: 'expired', daysRemaining: 0 };
  const days = calendarDaysBetween(now, key.expires_at);
  return REMINDER_DAYS.includes(days) ? { kind: 'expiring', daysRemaining: days } : null;
}

function eventFor(key: ExpiryCandidate, notice: Notice, now: Date): notificationEventsV1.NotificationEvent {
  const expiring = notice.kind === 'expiring';
  return {
    // Deterministic: the notifications service never creates a second notification for it.
    id: `apikey.${notice.kind}:${key.id}:${notice.daysRemaining}`,
    type: `apikey.${notice.kind}`,
    scope: 'user',
    team_id: '',
    user_id: key.user_id,
    title: expiring ? 'API key expiring soon' : 'API key expired',
    content: expiring
      ? `Your API key "${key.name}" (${key.key_prefix}) expires in ${notice.daysRemaining} day(s).`
      : `Your API key "${key.name}" (${key.key_prefix}) has expired.`,
    level: expiring ? 'medium' : 'high',
    data: {
      api_key_id: key.id,
      name: key.name,
      key_prefix: key.key_prefix,
      expires_at: key.expires_at.toISOString(),
      days_remaining: notice.daysRemaining,
    },
    link_url: '',
    occurred_at: now.toISOString(),
    source_service: 'apikeys',
  };
}

/**
 * `tasks.check_api_key_expiration`: `apikey.expiring` at exactly 7, 3 and 1 calendar days before
 * the expiry date (server time), `apikey.expired` once a key has expired; each notice once per key
 * and threshold: its claim in api_key_expiry_notices and its event in the outbox commit together
 * (the OutboxRelay publishes it, retrying while Kafka is down). Inactive keys get no notices.
 * Idempotent: safe to rerun any time, from any replica.
 */
export async function checkApiKeyExpiration(
  deps: ApiKeysDependencies,
  now = new Date(),
): Promise<apikeysV1.ExpirationCheckResult> {
  const until = new Date(now.getTime() + 8 * 86_400_000);
  const candidates = await findExpiryCandidates(deps.pool, until);
  const result = { expiring_sent: 0, expired_sent: 0 };
  for (const key of candidates) {
    const notice = noticeFor(key, now);
    if (!notice) continue;
    const claim = { keyId: key.id, ...notice, sentOn: localDate(now) };
    const event = eventFor(key, notice, now);
    const queued = await withTransaction(deps.pool, async (tx) => {
      if (!(await claimNotice(tx, claim))) return false;
      await enqueueEvent(tx, {
        topic: Topics.NOTIFICATION_EVENTS,
        key: key.user_id,
        type: event.type,
        id: event.id,
        value: event,
      });
      return true;
    });
    if (!queued) continue;
    if (notice.kind === 'expiring') result.expiring_sent += 1;
    else result.expired_sent += 1;
  }
  deps.logger.info({ task: EXPIRY_TASK, now: now.toISOString(), ...result }, 'api key expiry check done');
  return result;
}
