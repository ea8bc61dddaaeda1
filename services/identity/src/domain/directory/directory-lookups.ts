import type { Pool } from '@platform/db';
import {
  findTeamMembership,
  findUserContacts,
  listActiveUserIdsAfter,
  listTeamMemberIdsAfter,
  teamExists,
} from '../../data/directory-repository.js';
import {
  contactIds,
  decodeCursor,
  encodeCursor,
  pageLimit,
  requireUuid,
  teamRoles,
  type CursorList,
} from './directory-arguments.js';

/** What other services learn about users and teams (DirectoryService); no principal, a service token. */
export async function getUserContacts(pool: Pool, ids: readonly string[]) {
  return { users: await findUserContacts(pool, contactIds(ids)) };
}

/** `userId` absent or empty: only whether the team exists, and its name. */
export async function getTeamMembership(pool: Pool, teamId: string, userId: string | undefined) {
  const team = await findTeamMembership(
    pool,
    requireUuid('team_id', teamId),
    userId ? requireUuid('user_id', userId) : null,
  );
  if (!team) return { team_exists: false, team_name: '', role: '' };
  return { team_exists: true, team_name: team.name, role: team.role ?? '' };
}

/**
 * The site's default team (every user joins it at registration), or — on a site without one — the
 * user's first team by name.
 */
export async function getDefaultTeam(pool: Pool, userId: string) {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT t.id FROM teams t LEFT JOIN team_members tm ON tm.team_id = t.id AND tm.user_id = $1
      WHERE t.is_default OR tm.user_id IS NOT NULL ORDER BY t.is_default DESC, t.name, t.id LIMIT 1`,
    [requireUuid('user_id', userId)],
  );
  return { team_id: rows[0]?.id };
}

export interface PageRequest {
  cursor: string;
  limit: number;
}

export async function listTeamMemberIds(
  pool: Pool,
  request: PageRequest & { team_id: string; roles: readonly string[] },
) {
  const teamId = requireUuid('team_id', request.team_id);
  const roles = teamRoles(request.roles);
  const page = await readPage('team-members', request, (after, limit) =>
    listTeamMemberIdsAfter(pool, teamId, roles, after, limit),
  );
  // An empty first page may mean "no such team": say which, so a sender can answer 4004.
  if (page.user_ids.length === 0 && !(await teamExists(pool, teamId))) {
    return { found: false, user_ids: [], next_cursor: '' };
  }
  return page;
}

export async function listActiveUserIds(pool: Pool, request: PageRequest) {
  return readPage('active-users', request, (after, limit) => listActiveUserIdsAfter(pool, after, limit));
}

/** One page plus the cursor of the next one; reads one row more to know whether there is a next. */
async function readPage(
  list: CursorList,
  request: PageRequest,
  read: (after: string | null, limit: number) => Promise<string[]>,
) {
  const limit = pageLimit(request.limit);
  const ids = await read(decodeCursor(list, request.cursor), limit + 1);
  const page = ids.slice(0, limit);
  const more = ids.length > limit;
  return { found: true, user_ids: page, next_cursor: more ? encodeCursor(list, page.at(-1)!) : '' };
}
