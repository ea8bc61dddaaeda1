import { randomUUID } from 'node:crypto';
import { consumerLag, Topics } from '@platform/kafka';
import { waitUntil } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';

let harness: ApiKeysHarness;
let user: TestUser;

beforeAll(async () => {
  harness = await startApiKeysHarness();
  user = await harness.createUser();
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

async function agentsOf(keyId: string) {
  return (await harness.request('GET', `/api-keys/${keyId}`, { token: user.token })).body.data.agents;
}

describe('agent directory (platform.agent-directory → agent_directory)', () => {
  it(
    'names bound agents from the topic; unknown and deleted agents have null name and icon',
    { timeout: 120_000 },
    async () => {
      const known = randomUUID();
      const unknown = randomUUID();
      const made = await harness.request('POST', '/api-keys', {
        token: user.token,
        json: { name: 'bound', agent_ids: [known, unknown] },
      });
      const keyId = made.body.data.id;
      // On a broker that just started, the consumer's first group join can take a while.
      await harness.apikeys.agentDirectoryReady;
      const { producer } = harness.apikeys.dependencies;
      const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();
      await producer.publish(Topics.AGENT_DIRECTORY, {
        key: known,
        value: { id: known, name: 'Helper', icon: '🤖', deleted: false, updated_at: at(1) },
      });
      const expectedOrder = [known, unknown].sort();
      const view = (entries: Record<string, { name: string | null; icon: string | null }>) =>
        expectedOrder.map((id) => ({ id, ...(entries[id] ?? { name: null, icon: null }) }));
      await expect
        .poll(() => agentsOf(keyId), { timeout: 45_000, interval: 100 })
        .toEqual(view({ [known]: { name: 'Helper', icon: '🤖' } }));

      // An older entry arriving late changes nothing: once the consumer has taken it (the group's
      // committed offsets reach the end of the topic), the newer name still stands.
      await producer.publish(Topics.AGENT_DIRECTORY, {
        key: known,
        value: { id: known, name: 'Stale', icon: '', deleted: false, updated_at: at(0) },
      });
      const { kafka, config } = harness.apikeys.dependencies;
      await waitUntil(
        async () => {
          const lag = await consumerLag(kafka, config.AGENT_DIRECTORY_GROUP, Topics.AGENT_DIRECTORY);
          return lag.total === 0 ? true : undefined;
        },
        45_000,
        'the agent-directory consumer did not catch up',
        200,
      );
      expect(await agentsOf(keyId)).toEqual(view({ [known]: { name: 'Helper', icon: '🤖' } }));

      // A deletion clears name and icon.
      await producer.publish(Topics.AGENT_DIRECTORY, {
        key: known,
        value: { id: known, name: 'Helper', icon: '🤖', deleted: true, updated_at: at(2) },
      });
      await expect.poll(() => agentsOf(keyId), { timeout: 45_000, interval: 100 }).toEqual(view({}));
    },
  );
});
