import { credentials, loadPackageDefinition, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

type HealthClient = Client & {
  check(
    request: { service: string },
    options: { deadline: Date },
    callback: (error: ServiceError | null, response: { status: string }) => void,
  ): void;
};

let HealthConstructor:
  (new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => HealthClient) | undefined;

function healthConstructor() {
  if (!HealthConstructor) {
    const definition = loadSync(protoPath, { keepCase: true, enums: String });
    const loaded = loadPackageDefinition(definition) as unknown as {
      grpc: { health: { v1: { Health: typeof HealthConstructor } } };
    };
    HealthConstructor = loaded.grpc.health.v1.Health;
  }
  return HealthConstructor!;
}

/** Asks a server's standard health service; resolves to `SERVING`, `NOT_SERVING`, … or throws. */
export async function checkHealth(address: string, service = '', timeoutMs = 2_000): Promise<string> {
  const Health = healthConstructor();
  const client = new Health(address, credentials.createInsecure());
  try {
    return await new Promise<string>((resolve, reject) => {
      client.check({ service }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) =>
        error ? reject(error) : resolve(response.status),
      );
    });
  } finally {
    client.close();
  }
}
