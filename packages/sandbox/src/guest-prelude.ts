/**
 * JavaScript evaluated inside each fresh context BEFORE the user's script. It installs a bounded
 * `console` and a non-configurable `__sandbox` object the host calls to run `main` and to read the
 * logs. It captures the intrinsics it needs (JSON, Object.getPrototypeOf…) first, so user code that
 * poisons them later can at worst spoil its own result, which the host validates again anyway.
 *
 * The logs stay inside the isolate until the run ends: a logging loop fills the isolate's own
 * (capped) heap, never the host's, and the byte and line caps stop appending long before that.
 */
export function guestPrelude(maxLogBytes: number, maxLogLines: number): string {
  return `(() => {
  'use strict';
  const stringify = JSON.stringify, parse = JSON.parse, getProto = Object.getPrototypeOf;
  const objectProto = Object.prototype, isArray = Array.isArray, freeze = Object.freeze;
  const define = Object.defineProperty, StringOf = String, keysOf = Object.keys;
  const isFinite = Number.isFinite;
  // Array methods are NOT used below (user code may replace Array.prototype.push…): index writes only.
  const maxBytes = ${maxLogBytes}, maxLines = ${maxLogLines};
  const lines = [];
  let bytes = 0, truncated = false;

  const utf8Length = (text) => {
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
    }
    return n;
  };
  const format = (value) => {
    if (typeof value === 'string') return value;
    try { const json = stringify(value); return json === undefined ? StringOf(value) : json; }
    catch { try { return StringOf(value); } catch { return '[unprintable]'; } }
  };
  const writer = (level) => (...args) => {
    if (truncated) return;
    if (lines.length >= maxLines) { truncated = true; return; }
    let text = '';
    for (let i = 0; i < args.length; i++) {
      text += (i ? ' ' : '') + format(args[i]);
      if (text.length > maxBytes) break; // never build a line far past the cap
    }
    let size = utf8Length(text);
    if (bytes + size > maxBytes) {
      truncated = true;
      text = text.substring(0, maxBytes > bytes ? maxBytes - bytes : 0);
      size = utf8Length(text);
      if (bytes + size > maxBytes || text.length === 0) return;
    }
    bytes += size;
    lines[lines.length] = { level, text };
  };
  define(globalThis, 'console', {
    value: freeze({ log: writer('log'), info: writer('info'), warn: writer('warn'), error: writer('error') }),
    writable: false, configurable: false, enumerable: false,
  });

  const describe = (error) => {
    try {
      if (error !== null && typeof error === 'object' && typeof error.message === 'string') {
        const name = typeof error.name === 'string' ? error.name : 'Error';
        return name + ': ' + error.message;
      }
      return 'Uncaught ' + format(error);
    } catch { return 'Uncaught exception'; }
  };
  const notSerializable = (value) => {
    // JSON.stringify drops functions and symbols silently; the node must not lose data silently.
    const seen = [];
    const walk = (v) => {
      const t = typeof v;
      if (t === 'bigint' || t === 'function' || t === 'symbol' || t === 'undefined') return 'a ' + t;
      if (t === 'number' && !isFinite(v)) return 'a non-finite number';
      if (v === null || t !== 'object') return null;
      for (let i = 0; i < seen.length; i++) if (seen[i] === v) return 'a cycle';
      seen[seen.length] = v;
      const keys = keysOf(v);
      for (let i = 0; i < keys.length; i++) { const found = walk(v[keys[i]]); if (found) return found; }
      seen.length -= 1;
      return null;
    };
    return walk(value);
  };
  const encode = (value) => {
    if (value === null || typeof value !== 'object' || isArray(value)) {
      return stringify({ kind: 'not_an_object', message: 'main must return a plain object, got ' + (value === null ? 'null' : isArray(value) ? 'an array' : typeof value) });
    }
    const proto = getProto(value);
    if (proto !== objectProto && proto !== null) {
      return stringify({ kind: 'not_an_object', message: 'main must return a plain object' });
    }
    const problem = notSerializable(value);
    if (problem) return stringify({ kind: 'not_serializable', message: 'the result contains ' + problem });
    return stringify({ kind: 'ok', json: stringify(value) });
  };

  define(globalThis, '__sandbox', {
    value: freeze({
      async call(inputsJson) {
        try {
          if (typeof main !== 'function') {
            return stringify({ kind: 'missing_main', message: 'the code defines no top-level function main' });
          }
          return encode(await main(parse(inputsJson)));
        } catch (error) {
          return stringify({ kind: 'thrown', message: describe(error) });
        }
      },
      logs() { return stringify({ lines, truncated }); },
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();`;
}
