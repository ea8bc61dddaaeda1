// What the notification use cases know of a user, read from identity (adapters/identity-access.ts).
export interface UserContact {
  id: string;
  username: string;
  email: string;
  locale: string;
  is_active: boolean;
}
