// Waits until every domain service answers the standard gRPC health check with SERVING and the
// gateway answers GET /api/v1/health, or fails after READY_TIMEOUT seconds (default 60).
import { checkHealth } from '../../packages/grpc/dist/index.js';

const timeoutMs = Number(process.env.READY_TIMEOUT ?? 60) * 1000;
const grpcTargets = {
  identity: process.env.IDENTITY_GRPC_ADDR,
  apikeys: process.env.APIKEYS_GRPC_ADDR,
  notifications: process.env.NOTIFICATIONS_GRPC_ADDR,
  models: process.env.MODELS_GRPC_ADDR,
  workflows: process.env.WORKFLOWS_GRPC_ADDR,
  observability: process.env.OBSERVABILITY_GRPC_ADDR,
  'sandbox-worker': process.env.SANDBOX_WORKER_GRPC_ADDR,
};
const gatewayUrl = `http://127.0.0.1:${process.env.HTTP_PORT ?? 8080}/api/v1/health`;
const deadline = Date.now() + timeoutMs;
const pending = new Set([...Object.keys(grpcTargets), 'gateway']);

while (pending.size > 0 && Date.now() < deadline) {
  for (const name of [...pending]) {
    try {
      if (name === 'gateway') {
        const response = await fetch(gatewayUrl);
        if (response.ok) pending.delete(name);
      } else if ((await checkHealth(grpcTargets[name], '', 1000)) === 'SERVING') {
        pending.delete(name);
      }
    } catch {
      // not up yet
    }
  }
  if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
}
if (pending.size > 0) {
  console.error(`not ready after ${timeoutMs / 1000}s: ${[...pending].join(', ')}`);
  process.exit(1);
}
