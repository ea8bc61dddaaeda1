import ivm from 'isolated-vm';
import { MAX_CODE_BYTES } from './limits.js';
import { USER_SCRIPT_NAME } from './run-code.js';

export const SUPPORTED_LANGUAGES = ['javascript'] as const;

export type CodeProblem =
  | { kind: 'unknown_language'; field: 'language'; message: string }
  | { kind: 'code_too_large'; field: 'code'; message: string }
  | { kind: 'syntax_error'; field: 'code'; message: string; line?: number; column?: number }
  | { kind: 'missing_main'; field: 'code'; message: string };

/** Heap of the checking isolate: it only parses at most MAX_CODE_BYTES of source. */
const CHECK_MEMORY_MB = 16;

/**
 * The save-time check of a code node's definition. It never runs user code: the source is only
 * COMPILED in a throwaway isolate. "Has a top-level main" is decided by the compiler too: compiling
 * the source followed by `let main;` is an early SyntaxError ("already been declared") exactly when
 * the script declares `main` at top level (function, var, let, const or class).
 * (`checkCodeSync` is the same check for callers that cannot await.)
 */
export async function checkCode(definition: { language: unknown; code: unknown }): Promise<CodeProblem[]> {
  return checkCodeSync(definition);
}

/**
 * `checkCode`, synchronous: a definition's rules are plain functions (also used when a run is
 * planned), and compiling at most MAX_CODE_BYTES takes about a millisecond.
 */
export function checkCodeSync(definition: { language: unknown; code: unknown }): CodeProblem[] {
  if (!SUPPORTED_LANGUAGES.includes(definition.language as 'javascript')) {
    const message = `unknown language ${JSON.stringify(definition.language)}; supported: ${SUPPORTED_LANGUAGES.join(', ')}`;
    return [{ kind: 'unknown_language', field: 'language', message }];
  }
  if (typeof definition.code !== 'string') {
    return [{ kind: 'syntax_error', field: 'code', message: 'the code must be a string' }];
  }
  if (Buffer.byteLength(definition.code, 'utf8') > MAX_CODE_BYTES) {
    return [
      { kind: 'code_too_large', field: 'code', message: `the code is larger than ${MAX_CODE_BYTES} bytes` },
    ];
  }
  const isolate = new ivm.Isolate({ memoryLimit: CHECK_MEMORY_MB });
  try {
    const syntax = compileProblem(isolate, definition.code);
    if (syntax) return [syntax];
    const redeclared = compileProblem(isolate, `${definition.code}\n;let main;`);
    if (redeclared && /already been declared/.test(redeclared.message)) return [];
    return [{ kind: 'missing_main', field: 'code', message: 'the code defines no top-level function main' }];
  } finally {
    isolate.dispose();
  }
}

function compileProblem(isolate: ivm.Isolate, source: string): CodeProblem | undefined {
  try {
    isolate.compileScriptSync(source, { filename: USER_SCRIPT_NAME }).release();
    return undefined;
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    // isolated-vm appends the position as " [code.js:LINE:COLUMN]".
    const position = /\[code\.js:(\d+):(\d+)\]/.exec(text);
    return {
      kind: 'syntax_error',
      field: 'code',
      message: text,
      ...(position ? { line: Number(position[1]), column: Number(position[2]) } : {}),
    };
  }
}
