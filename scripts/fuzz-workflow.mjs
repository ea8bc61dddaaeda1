// Live state for the fuzz user (FUZZ_TOKEN) that no schema can give (scripts/fuzz_hooks.py), printed
// as three lines on stdout:
//   1. a workflow to edit: PUT /workflows/{id} and POST /workflow-versions check their body only
//      once the workflow is found;
//   2. a published start → template → end workflow in a team of the user's, to run: a run needs a
//      published snapshot and a team to count against, which a fresh account has neither of;
//   3. that team's id.
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const token = process.env.FUZZ_TOKEN;
if (!token) throw new Error('FUZZ_TOKEN is required');

async function call(method, path, body) {
  const response = await fetch(`${gateway}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

const runnable = {
  schema_version: 2,
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [] } },
    { id: 'hi', type: 'template', data: { template: 'hello' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'text', value: '{{hi.text}}' }] } },
  ],
  edges: [
    { id: 'e0', source: 'start', target: 'hi' },
    { id: 'e1', source: 'hi', target: 'end' },
  ],
};

const editable = await call('POST', '/workflows', {
  name: 'fuzz',
  definition: { schema_version: 2, nodes: [], edges: [] },
});
const team = await call('POST', '/teams', { name: `fuzz-${Date.now()}` });
const toRun = await call('POST', '/workflows', { name: 'fuzz-run', team_id: team.id, definition: runnable });
await call('POST', `/workflows/${toRun.id}/publish`, { presentation_mode: 'simple' });
process.stdout.write(`${editable.id}\n${toRun.id}\n${team.id}\n`);
