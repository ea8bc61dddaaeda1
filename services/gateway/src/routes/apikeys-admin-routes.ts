import { API_KEY_AUDIT_ACTIONS, type apikeysV1 } from '@platform/contracts';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute } from './route-definition.js';
import { pagingQuery } from './validation.js';

const auditQuery = z.object({
  ...pagingQuery,
  key_id: z.uuid().optional(),
  actor_user_id: z.uuid().optional(),
  key_owner_id: z.uuid().optional(),
});
type AuditQuery = z.infer<typeof auditQuery>;

const auditEntry = z.object({
  id: z.string(),
  key_id: z.uuid(),
  key_prefix: z.string(),
  key_owner_id: z.uuid(),
  action: z.enum(API_KEY_AUDIT_ACTIONS.names),
  actor_user_id: z.uuid(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).describe('What changed (names and non-secret values)'),
  created_at: z.string(),
});

function toHttpEntry(entry: apikeysV1.ApiKeyAuditEntry) {
  return {
    ...entry,
    action: API_KEY_AUDIT_ACTIONS.fromProto(entry.action),
    ip: entry.ip || null,
    user_agent: entry.user_agent || null,
    request_id: entry.request_id || null,
    details: entry.details ?? {},
  };
}

/** The API-key audit trail (docs/apikeys.md): global admins only, never secrets or hashes. */
export const apikeysAdminRoutes = [
  defineRoute<ServiceClients, undefined, AuditQuery, undefined, apikeysV1.ListApiKeyAuditResponse>({
    tags: ['api-keys'],
    auth: 'user',
    method: 'get',
    path: '/admin/api-keys/audit',
    summary: 'Who created, changed, activated, deactivated or deleted API keys, when and from where',
    permission: 'admin:dashboard:access',
    query: auditQuery,
    response: z.object({
      items: z.array(auditEntry),
      total: z.number().int(),
      page: z.number().int(),
      page_size: z.number().int(),
    }),
    invoke: ({ query }, { clients, principal }) =>
      clients.apikeys.call(
        'listApiKeyAudit',
        {
          page: query.page,
          page_size: query.page_size,
          key_id: query.key_id,
          actor_user_id: query.actor_user_id,
          key_owner_id: query.key_owner_id,
        },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toHttpEntry) }),
  }),
];
