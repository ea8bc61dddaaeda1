import type { FailureReason, JsonObject } from './result.js';

/** Inputs cross into the isolate as one JSON string, bounded in UTF-8 bytes. */
export function encodeInputs(
  inputs: unknown,
  maxBytes: number,
): { ok: true; json: string } | { ok: false; reason: FailureReason; message: string } {
  if (!isPlainObject(inputs)) {
    return { ok: false, reason: 'not_an_object', message: 'the inputs must be a JSON object' };
  }
  let json: string;
  try {
    json = JSON.stringify(inputs);
  } catch (error) {
    return { ok: false, reason: 'not_serializable', message: `the inputs are not JSON: ${String(error)}` };
  }
  if (Buffer.byteLength(json, 'utf8') > maxBytes) {
    return { ok: false, reason: 'input_too_large', message: `the inputs are larger than ${maxBytes} bytes` };
  }
  return { ok: true, json };
}

type Decoded =
  | { kind: 'ok'; output: JsonObject }
  | {
      kind: 'thrown' | 'missing_main' | 'not_an_object' | 'not_serializable' | 'output_too_large';
      message: string;
    };

/**
 * Reads the guest's answer (`{ kind, json | message }`, produced by the prelude). The guest is not
 * trusted: user code may have poisoned the intrinsics the prelude relies on, so the host checks the
 * shape, the size and that the output is a plain object again.
 */
export function decodeEnvelope(envelope: unknown, maxOutputBytes: number): Decoded {
  const answer = parseObject(envelope);
  const kind = answer?.kind;
  if (kind === 'ok' && typeof answer?.json === 'string') {
    if (Buffer.byteLength(answer.json, 'utf8') > maxOutputBytes) {
      return { kind: 'output_too_large', message: `the result is larger than ${maxOutputBytes} bytes` };
    }
    const output = parseObject(answer.json);
    if (output) return { kind: 'ok', output: output as JsonObject };
    return { kind: 'not_an_object', message: 'main must return a plain object' };
  }
  if (
    (kind === 'thrown' ||
      kind === 'missing_main' ||
      kind === 'not_an_object' ||
      kind === 'not_serializable') &&
    typeof answer?.message === 'string'
  ) {
    return { kind, message: answer.message.slice(0, 2_000) };
  }
  return { kind: 'not_serializable', message: 'the sandbox could not read the result' };
}

function parseObject(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
