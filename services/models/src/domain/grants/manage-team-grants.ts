import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, isUuid, readPaging } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import type { TeamInfo } from './team-directory-port.js';
import {
  deleteGrant,
  findGrant,
  insertGrant,
  listGrants,
  modelExists,
  updateGrant,
  type GrantChange,
} from '../../data/grants-repository.js';
import { periodOf } from '../quota/usage-period.js';
import { GRANT_AUDIENCE_ROLES, notifyTeamManagers } from './grant-events.js';
import { checkQuota } from './grant-rules.js';
import type { GrantsDeps } from './grants-deps.js';
import { toGrant } from './grant-views.js';

async function loadTeam(deps: GrantsDeps, teamId: string): Promise<TeamInfo> {
  const team = isUuid(teamId) ? await deps.teams.findTeam(teamId) : undefined;
  if (!team) throw new BusinessError(ErrorCode.TEAM_NOT_FOUND);
  return team;
}

/** `GET /admin/teams/{team_id}/models`: the team's grants with the current period's usage. */
export async function listTeamGrants(
  deps: GrantsDeps,
  request: grantsV1.ListTeamModelsRequest,
): Promise<grantsV1.ListTeamModelsResponse> {
  const page = readPaging(request.page, request.page_size);
  await loadTeam(deps, request.team_id);
  const period = periodOf(deps.now());
  const { rows, total } = await listGrants(deps.pool, request.team_id, period.startDate, page);
  return { items: rows.map((row) => toGrant(row, period)), total, page: page.page, page_size: page.pageSize };
}

/**
 * `POST /admin/teams/{team_id}/models`: 4004 unknown team, 6100 unknown model, 6102 already
 * granted (the primary key decides, so of concurrent grants exactly one wins and notifies).
 */
export async function grantTeamModel(
  deps: GrantsDeps,
  actor: Principal,
  request: grantsV1.GrantTeamModelRequest,
): Promise<grantsV1.TeamModelGrant> {
  checkQuota('token_quota', request.token_quota);
  checkQuota('request_quota', request.request_quota);
  const team = await loadTeam(deps, request.team_id);
  if (!isUuid(request.model_id)) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  // Asked before the transaction: no remote call holds a database connection open.
  const recipients = await deps.teams.memberIds(team.id, GRANT_AUDIENCE_ROLES);
  const period = periodOf(deps.now());
  return withTransaction(deps.pool, async (tx) => {
    if (!(await modelExists(tx, request.model_id))) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
    const inserted = await insertGrant(tx, team.id, request.model_id, {
      isEnabled: request.is_enabled ?? true,
      tokenQuota: request.token_quota ?? null,
      requestQuota: request.request_quota ?? null,
    });
    if (!inserted) throw new BusinessError(ErrorCode.TEAM_MODEL_EXISTS);
    const row = (await findGrant(tx, team.id, request.model_id, period.startDate))!;
    await notifyTeamManagers(tx, recipients, {
      kind: 'granted',
      grantId: row.id,
      team,
      model: { id: row.model_id, name: row.model_name },
      actorId: actor.user_id,
      occurredAt: deps.now(),
    });
    return toGrant(row, period);
  });
}

/** `PUT /admin/teams/{team_id}/models/{model_id}`: partial; 4004 unknown team, 6101 no such grant. */
export async function updateTeamGrant(
  deps: GrantsDeps,
  request: grantsV1.UpdateTeamModelRequest,
): Promise<grantsV1.TeamModelGrant> {
  const change: GrantChange = { isEnabled: request.is_enabled };
  if (request.token_quota) change.tokenQuota = request.token_quota.limit ?? null;
  if (request.request_quota) change.requestQuota = request.request_quota.limit ?? null;
  checkQuota('token_quota', change.tokenQuota);
  checkQuota('request_quota', change.requestQuota);
  const team = await loadTeam(deps, request.team_id);
  if (!isUuid(request.model_id) || !(await updateGrant(deps.pool, team.id, request.model_id, change))) {
    throw new BusinessError(ErrorCode.TEAM_MODEL_NOT_FOUND);
  }
  const period = periodOf(deps.now());
  const row = await findGrant(deps.pool, team.id, request.model_id, period.startDate);
  // Revoked between the update and this read: the grant is gone.
  if (!row) throw new BusinessError(ErrorCode.TEAM_MODEL_NOT_FOUND);
  return toGrant(row, period);
}

/**
 * `DELETE /admin/teams/{team_id}/models/{model_id}`: 4004 unknown team, 6101 no such grant. The
 * period's usage counters stay: re-granting within the period does not reset the quota.
 */
export async function revokeTeamGrant(
  deps: GrantsDeps,
  actor: Principal,
  request: grantsV1.TeamModelRef,
): Promise<grantsV1.RevokeTeamModelResponse> {
  const team = await loadTeam(deps, request.team_id);
  if (!isUuid(request.model_id)) throw new BusinessError(ErrorCode.TEAM_MODEL_NOT_FOUND);
  const recipients = await deps.teams.memberIds(team.id, GRANT_AUDIENCE_ROLES);
  const period = periodOf(deps.now());
  await withTransaction(deps.pool, async (tx) => {
    const row = await findGrant(tx, team.id, request.model_id, period.startDate);
    const deletedId = row ? await deleteGrant(tx, team.id, request.model_id) : undefined;
    // Of concurrent revokes only the one that deleted the row notifies; the others get 6101.
    if (!row || !deletedId) throw new BusinessError(ErrorCode.TEAM_MODEL_NOT_FOUND);
    await notifyTeamManagers(tx, recipients, {
      kind: 'revoked',
      grantId: deletedId,
      team,
      model: { id: row.model_id, name: row.model_name },
      actorId: actor.user_id,
      occurredAt: deps.now(),
    });
  });
  return { team_id: team.id, model_id: request.model_id };
}
