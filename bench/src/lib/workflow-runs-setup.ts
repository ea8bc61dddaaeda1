// Set-up of bench/src/workflow-runs.ts: the fake models, the allowlist, and one team with its own
// published workflows per benchmark user. Several users in several teams, so the fairness caps of
// issue 20 (RUN_MAX_RUNNING_PER_USER 8, RUN_MAX_RUNNING_PER_TEAM 16, RUN_MAX_UNFINISHED_PER_USER
// 200) are not what the benchmark measures.
import type { TokenService } from '@platform/auth';
import type { Pool } from '@platform/db';
import { insertIdentityUser, startFakeOpenAi, type FakeOpenAi, type Requester } from '@platform/testing';

export type WorkflowKind = 'trivial' | 'five_nodes_llm' | 'slow_llm';

/** One benchmark user: a token and the ids of the three published workflows of its own team. */
export interface BenchUser {
  token: string;
  workflows: Record<WorkflowKind, string>;
}

export interface WorkflowRunsSetup {
  admin: { token: string };
  users: BenchUser[];
  /** Puts back the site settings and stops the fakes. */
  restore(): Promise<void>;
}

type Data = Record<string, unknown>;

async function ok(res: { body: { code: number; data: unknown } }, what: string): Promise<Data> {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Data;
}

const node = (id: string, type: string, data: Data = {}) => ({ id, type, data });
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
const startNode = node('start', 'start', { inputs: [{ name: 'n', type: 'number', required: true }] });

function definitionsFor(modelId: unknown, slowModelId: unknown): Record<WorkflowKind, Data> {
  return {
    trivial: {
      schema_version: 2,
      nodes: [startNode, node('end', 'end', { outputs: [{ name: 'n', value: '{{inputs.n}}' }] })],
      edges: [edge('start', 'end')],
    },
    five_nodes_llm: {
      schema_version: 2,
      nodes: [
        startNode,
        node('prompt', 'template', { template: 'Describe run number {{inputs.n}}' }),
        node('check', 'condition', { conditions: [{ left: '{{inputs.n}}', operator: 'not_empty' }] }),
        node('ask', 'llm', { model_id: modelId, prompt: '{{prompt.text}}' }),
        node('end', 'end', { outputs: [{ name: 'text', value: '{{ask.text}}' }] }),
      ],
      edges: [
        edge('start', 'prompt'),
        edge('prompt', 'check'),
        edge('check', 'ask', 'true'),
        edge('ask', 'end'),
      ],
    },
    slow_llm: {
      schema_version: 2,
      nodes: [
        startNode,
        node('ask', 'llm', { model_id: slowModelId, prompt: 'Run {{inputs.n}}' }),
        node('end', 'end', { outputs: [{ name: 'text', value: '{{ask.text}}' }] }),
      ],
      edges: [edge('start', 'ask'), edge('ask', 'end')],
    },
  };
}

export async function setUpWorkflowRuns(args: {
  request: Requester;
  identityDb: Pool;
  tokens: TokenService;
  userCount: number;
}): Promise<WorkflowRunsSetup> {
  const { request, identityDb, tokens } = args;
  const admin = await insertIdentityUser(identityDb, tokens, { superuser: true, name: 'benchadmin' });
  const fake: FakeOpenAi = await startFakeOpenAi({
    apiKey: 'sk-bench',
    model: 'bench-chat',
    deltas: ['The', ' run', ' streams', ' eight', ' small', ' text', ' deltas', '.'],
    usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 },
    deltaDelayMs: 0,
  });
  // A slow model (8 deltas, 1 s apart) for the kill: runs are mid-node when the worker dies.
  const slowFake: FakeOpenAi = await startFakeOpenAi({
    apiKey: 'sk-bench',
    model: 'bench-chat',
    deltas: Array.from({ length: 8 }, (_, i) => ` d${i}`),
    usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 },
    deltaDelayMs: 1_000,
  });
  const before = await ok(await request('GET', '/admin/site-settings', { token: admin.token }), 'settings');
  const previousAllowlist = (before.model_endpoint_allowlist as string[] | undefined) ?? [];
  await ok(
    await request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { model_endpoint_allowlist: [...previousAllowlist, fake.origin, slowFake.origin] },
    }),
    'allowlist',
  );
  const createModel = async (label: string, baseUrl: string) =>
    ok(
      await request('POST', '/admin/models', {
        token: admin.token,
        json: {
          name: `bench-${label}-${Date.now()}`,
          provider: 'custom',
          model_id: 'bench-chat',
          model_type: 'chat',
          base_url: baseUrl,
          api_key: 'sk-bench',
        },
      }),
      `model ${label}`,
    );
  const model = await createModel('fast', fake.baseUrl);
  const slowModel = await createModel('slow', slowFake.baseUrl);
  const definitions = definitionsFor(model.id, slowModel.id);
  const users: BenchUser[] = [];
  for (let i = 0; i < args.userCount; i += 1) {
    const owner = await insertIdentityUser(identityDb, tokens, { name: `benchowner${i}` });
    const team = await ok(
      await request('POST', '/teams', { token: owner.token, json: { name: `bench-${i}-${Date.now()}` } }),
      'team',
    );
    for (const granted of [model, slowModel]) {
      await ok(
        await request('POST', `/admin/teams/${String(team.id)}/models`, {
          token: admin.token,
          json: { model_id: granted.id },
        }),
        'grant',
      );
    }
    const publish = async (kind: WorkflowKind) => {
      const created = await ok(
        await request('POST', '/workflows', {
          token: owner.token,
          json: { name: `bench-${kind}-${Date.now()}`, team_id: team.id, definition: definitions[kind] },
        }),
        `create ${kind}`,
      );
      await ok(
        await request('POST', `/workflows/${String(created.id)}/publish`, {
          token: owner.token,
          json: { presentation_mode: 'simple' },
        }),
        `publish ${kind}`,
      );
      return String(created.id);
    };
    users.push({
      token: owner.token,
      workflows: {
        trivial: await publish('trivial'),
        five_nodes_llm: await publish('five_nodes_llm'),
        slow_llm: await publish('slow_llm'),
      },
    });
  }
  return {
    admin,
    users,
    async restore() {
      await request('PUT', '/admin/site-settings', {
        token: admin.token,
        json: { model_endpoint_allowlist: previousAllowlist },
      });
      await fake.close();
      await slowFake.close();
    },
  };
}
