import http from 'node:http';

/** A keep-alive GET that resolves on a 2xx answer and rejects otherwise (bench only). */
export function keepAliveGetter(
  url: string,
  maxSockets = 64,
  headers: Record<string, string> = {},
): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode && response.statusCode < 300
              ? resolve()
              : reject(new Error(`HTTP ${response.statusCode}`)),
          );
        })
        .on('error', reject);
    });
}
