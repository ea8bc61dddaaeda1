// The probe: a tiny gRPC service and its gateway routes, for the gateway's tests and the benchmarks.
export { startProbeService, type RunningProbe } from './probe-service.js';
export { probeRoutes, type ProbeClients } from './probe-routes.js';
