/** The platform's JSON envelope as a test sees it. */
export interface HttpResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read any field of `data`
  body: { code: number; data: any; msg: string };
  headers: Headers;
}

export interface RequestOptions {
  json?: unknown;
  /** application/x-www-form-urlencoded fields (the two login endpoints). */
  form?: Record<string, string>;
  /** A raw body with its content type (malformed-body tests). */
  raw?: { body: string; contentType: string };
  /** Sent as `Authorization: Bearer <token>` (a JWT or an API key). */
  token?: string;
  headers?: Record<string, string>;
}

export type Requester = (method: string, path: string, options?: RequestOptions) => Promise<HttpResult>;

/**
 * fetch → envelope against a gateway at `baseUrl`; `path` is under `prefix` (`/api/v1`). A reply
 * that is not a JSON envelope fails the test with the start of what came back.
 */
export function requester(baseUrl: string, prefix = '/api/v1'): Requester {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${baseUrl}${prefix}${path}`, { method, headers, body });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text), headers: response.headers };
    } catch {
      throw new Error(`${method} ${path}: not an envelope (${response.status}): ${text.slice(0, 200)}`);
    }
  };
}
