import type { Principal } from '@platform/grpc';
import type { RunFilter } from '../../data/runs-repository.js';

/** Whoever holds it reads every run of a workflow he can reach (the runs routes' JWT permission). */
const READS_EVERY_RUN = 'workflow:read';
/** Matches no run: an API-key principal without its key id (never sent by the gateway). */
const NO_KEY = '00000000-0000-0000-0000-000000000000';

/**
 * Which runs of a workflow the caller may reach sees (issue 20; the caller's access to the workflow
 * itself is checked first, by `loadWorkflowFor`). A user (JWT): every run. An API key: only the
 * runs it started, unless its owner could see more with his own JWT, that is unless the owner
 * holds `workflow:read` at this request (`owner_permissions`, filled by the gateway from the
 * owner's current roles): then the owner's view, every run. Exported for every check that
 * repeats it (run streams).
 */
export function runsVisibleTo(
  caller: Pick<Principal, 'auth_method' | 'api_key_id' | 'owner_permissions'>,
): RunFilter {
  if (caller.auth_method !== 'api_key') return { startedByKey: null };
  if (caller.owner_permissions?.includes(READS_EVERY_RUN)) return { startedByKey: null };
  return { startedByKey: caller.api_key_id || NO_KEY };
}
