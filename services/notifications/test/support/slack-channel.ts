import { expect } from 'vitest';
import type { NotificationsHarness } from './harness.js';

/** Switches the Slack channel on with a webhook URL nothing resolves: deliveries are created, never sent. */
export async function enableSlackChannel(h: NotificationsHarness, superuserToken: string): Promise<void> {
  const settings = await h.request('PUT', '/admin/site-settings', {
    token: superuserToken,
    json: { slack_enabled: true, slack_webhook_url: 'https://hooks.slack.example/services/T/B/X' },
  });
  expect(settings.body.code).toBe(0);
}
