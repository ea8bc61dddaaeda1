export { stackEnv, uniqueName } from './stack-env.js';
export { listen, type RunningHttp } from './http-server.js';
export { startProbeService, type RunningProbe } from './probe/probe-service.js';
export { probeRoutes, type ProbeClients } from './probe/probe-routes.js';
