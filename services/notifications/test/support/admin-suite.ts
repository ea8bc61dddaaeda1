import { afterAll, beforeAll } from 'vitest';
import { adminCast, type AdminCast } from './admin-cast.js';
import { startNotificationsHarness, type NotificationsHarness } from './harness.js';

/**
 * One notifications harness and the admin cast for a route file: started before the file's tests
 * (`ready` hands both over, the file keeps them in its own variables) and stopped after them.
 */
export function useAdminSuite(ready: (harness: NotificationsHarness, cast: AdminCast) => void): void {
  let harness: NotificationsHarness | undefined;
  beforeAll(async () => {
    harness = await startNotificationsHarness();
    ready(harness, await adminCast(harness));
  });
  afterAll(async () => {
    await harness?.stop();
  });
}
