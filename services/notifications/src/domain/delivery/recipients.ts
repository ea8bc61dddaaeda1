import type { Contact, RecipientDirectory } from '../identity-port.js';
import type { DeliveryDoc } from '../../data/models.js';

export interface RecipientPage {
  contacts: Contact[];
  /** Cursor of the page after this one; empty on the last. */
  next: string;
}

/**
 * One page of a notification's recipients, active (and with an address unless `needsEmail` is
 * false, as for the DingTalk and WeCom apps, which address users by username): `user` → that user;
 * `team` → its members; `global` → every active user. Ids come in identity's stable order, so a
 * batch resumed from its cursor and offset sees the same list.
 */
export async function recipientPage(
  directory: RecipientDirectory,
  message: DeliveryDoc['message'],
  cursor: string,
  limit: number,
  options: { needsEmail: boolean } = { needsEmail: true },
): Promise<RecipientPage> {
  let ids: string[];
  let next = '';
  if (message.scope === 'user') {
    ids = message.user_id ? [message.user_id] : [];
  } else if (message.scope === 'team') {
    const page = message.team_id ? await directory.teamMemberIds(message.team_id, cursor, limit) : undefined;
    ids = page?.found ? page.ids : [];
    next = page?.found ? page.next : '';
  } else {
    const page = await directory.activeUserIds(cursor, limit);
    ids = page.ids;
    next = page.next;
  }
  const contacts = (await directory.contacts(ids)).filter(
    (c) => c.is_active && (c.email || !options.needsEmail),
  );
  // Keep the directory's order (contacts may come back in any order).
  const order = new Map(ids.map((id, index) => [id, index]));
  contacts.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { contacts, next };
}
