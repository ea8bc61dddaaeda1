import type { notificationEventsV1, TeamRoleName } from '@platform/contracts';
import { Topics } from '@platform/kafka';
import { enqueueEvent, type Queryable } from '@platform/outbox';
import type { TeamInfo } from './team-directory-port.js';

/** Who hears about a team's model grants: the roles that manage the team. */
export const GRANT_AUDIENCE_ROLES: readonly TeamRoleName[] = ['OWNER', 'ADMIN'];

export interface GrantNotice {
  kind: 'granted' | 'revoked';
  grantId: string;
  team: TeamInfo;
  model: { id: string; name: string };
  /** The admin who made the change. */
  actorId: string;
  occurredAt: Date;
}

/**
 * `team.model_granted` / `team.model_revoked` to each of the team's OWNER/ADMINs, written to the
 * outbox with `tx`, the grant's own transaction: the events commit or roll back with the change.
 * Ids are deterministic per grant and recipient, so a relay redelivery creates one notification.
 */
export async function notifyTeamManagers(tx: Queryable, recipients: string[], notice: GrantNotice) {
  const type = `team.model_${notice.kind}`;
  const granted = notice.kind === 'granted';
  for (const userId of recipients) {
    const value: notificationEventsV1.NotificationEvent = {
      id: `${type}:${notice.grantId}:${userId}`,
      type,
      scope: 'user',
      team_id: notice.team.id,
      user_id: userId,
      title: granted ? 'Model granted to your team' : 'Model revoked from your team',
      content: granted
        ? `${notice.team.name} can now use the model ${notice.model.name}.`
        : `${notice.team.name} can no longer use the model ${notice.model.name}.`,
      level: granted ? 'low' : 'medium',
      data: {
        team_id: notice.team.id,
        team_name: notice.team.name,
        model_id: notice.model.id,
        model_name: notice.model.name,
        actor_user_id: notice.actorId,
      },
      link_url: '',
      occurred_at: notice.occurredAt.toISOString(),
      source_service: 'models',
    };
    await enqueueEvent(tx, { topic: Topics.NOTIFICATION_EVENTS, key: userId, type, id: value.id, value });
  }
}
