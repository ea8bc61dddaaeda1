// Creates a workflow owned by the fuzz user (FUZZ_TOKEN) and prints its id (one line on stdout),
// for the operations whose body is checked only once the workflow is found (scripts/fuzz_hooks.py).
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const token = process.env.FUZZ_TOKEN;
if (!token) throw new Error('FUZZ_TOKEN is required');

const response = await fetch(`${gateway}/api/v1/workflows`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({ name: 'fuzz', definition: { schema_version: 2, nodes: [], edges: [] } }),
});
const body = await response.json();
if (body.code !== 0) throw new Error(`create workflow: ${response.status} ${JSON.stringify(body)}`);
process.stdout.write(`${body.data.id}\n`);
