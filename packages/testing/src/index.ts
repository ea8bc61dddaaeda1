export { stackEnv, uniqueName } from './stack-env.js';
export { startGatewayProcess, type GatewayProcess } from './gateway-process.js';
export { startFailoverProxy, type FailoverProxy } from './failover-proxy.js';
export { DEV_SERVICES, servicePublicKey, type DevService } from './service-keys.js';
export { listen, type RunningHttp } from './http-server.js';
export { requester, type HttpResult, type RequestOptions, type Requester } from './requester.js';
export { waitUntil } from './wait-until.js';
export { captureEvents, type EventCapture } from './event-capture.js';
export {
  startSmtpSink,
  parseMail,
  SMTP_SINK_CA,
  type ReceivedMail,
  type SmtpSink,
  type SmtpSinkOptions,
} from './smtp-sink.js';
export {
  startHttpReceiver,
  type HttpReceiver,
  type ReceivedRequest,
  type ScriptedAnswer,
} from './http-receiver.js';
export { freshDatabase, type FreshDatabase } from './fresh-database.js';
export { freePort, freePorts } from './free-port.js';
export { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './service-process.js';
export { startIdentityProcess, type IdentityProcess } from './identity-process.js';
export {
  insertIdentityUser,
  type AccessTokenIssuer,
  type IdentityUser,
  type IdentityUserOptions,
} from './identity-users.js';
export { testClock, type TestClock } from './test-clock.js';
export { startFakeOpenAi, type FakeChatRequest, type FakeOpenAi } from './fake-openai.js';
export { openSse, type SseMessage, type SseSession } from './sse-client.js';
export { parseMetrics, scrapeMetrics, metricValue, type MetricSample } from './metrics-scrape.js';
export {
  startJaeger,
  startTraceBackend,
  JAEGER_BINARY,
  type Jaeger,
  type JaegerSpan,
  type JaegerTrace,
  type TraceSpan,
} from './jaeger.js';
export { captureSpans, SpanKind, type SpanCapture } from './span-capture.js';
export { startDnsServer, type DnsRecord, type DnsServer } from './dns-server.js';
export { useTestDns, DNS_PRELOAD } from './test-dns.js';
export { runServiceCommand, type CommandResult } from './service-command.js';
export { routeSecurity, type GuardedRoute, type SecurityAnswers } from './route-security.js';
