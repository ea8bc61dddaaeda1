import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SAFE_TEXT_PATTERN, withSafeText } from '../src/openapi/safe-text-schema.js';
import { atLeastOneField } from '../src/routes/at-least-one-field.js';
import { collectUnsafeText, fieldErrors } from '../src/routes/validation.js';

const inputSchema = (schema: z.ZodType) =>
  withSafeText(z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>);

/** Whether the edge's text rule refuses a string (the rule the pattern states). */
function refusedAtTheEdge(text: string): boolean {
  const errors = fieldErrors();
  collectUnsafeText(text, 'field', errors);
  return Object.keys(errors).length > 0;
}

describe('the no-NUL rule in the OpenAPI document', () => {
  it('the pattern accepts exactly the strings the edge accepts (NUL anywhere is refused)', () => {
    const pattern = new RegExp(SAFE_TEXT_PATTERN, 'u');
    for (const text of ['', 'plain', 'ünïcödé 😀', 'tab\tand\nnewline', 'a\u0000b', '\u0000', 'end\u0000']) {
      expect(pattern.test(text), JSON.stringify(text)).toBe(!refusedAtTheEdge(text));
    }
  });

  it('gives free text the pattern with its length bounds, and leaves confined strings alone', () => {
    const json = inputSchema(
      z.object({
        name: z.string().min(1).max(100),
        note: z.string(),
        body: z.string().min(1).max(100_000),
        id: z.uuid(),
        kind: z.enum(['a', 'b']),
        code: z.string().regex(/^\d{6}$/),
      }),
    ) as { properties: Record<string, Record<string, unknown>> };
    expect(json.properties.name!.pattern).toBe('^[^\\u0000]{1,100}$');
    expect(json.properties.note!.pattern).toBe(SAFE_TEXT_PATTERN);
    expect(json.properties.body!.pattern).toBe('^[^\\u0000]{1,}$');
    expect(json.properties.body!.maxLength).toBe(100_000);
    expect(json.properties.id!.pattern).not.toContain('\\u0000');
    expect(json.properties.kind!.pattern).toBeUndefined();
    expect(json.properties.code!.pattern).toBe('^\\d{6}$');
  });

  it('says keys a route does not name carry no NUL either; strict objects take none', () => {
    const open = inputSchema(z.object({ a: z.number() }));
    expect(open.propertyNames).toEqual({ pattern: SAFE_TEXT_PATTERN });
    expect(open.additionalProperties).toBeDefined();
    const strict = inputSchema(z.strictObject({ a: z.number() }));
    expect(strict.additionalProperties).toBe(false);
    expect(strict.propertyNames).toBeUndefined();
  });
});

describe('values a route takes as any JSON', () => {
  it('say their keys and strings carry no NUL at every level the document shows', () => {
    const json = inputSchema(
      z.object({ params: z.record(z.string(), z.unknown()), extra: z.unknown().describe('anything') }),
    ) as { properties: Record<string, Record<string, unknown>> };
    const params = json.properties.params!;
    expect(params.propertyNames).toEqual({ type: 'string', pattern: SAFE_TEXT_PATTERN });
    const value = params.additionalProperties as { anyOf: Record<string, unknown>[] };
    expect(value.anyOf).toContainEqual({ type: 'string', pattern: SAFE_TEXT_PATTERN });
    const nested = value.anyOf.find((schema) => schema.type === 'object')!;
    expect(nested.propertyNames).toEqual({ pattern: SAFE_TEXT_PATTERN });
    expect(json.properties.extra).toMatchObject({ description: 'anything', anyOf: value.anyOf });
  });

  it('leaves names, data and empty objects as they are', () => {
    const json = inputSchema(
      z.object({
        empty: z.object({}),
        kind: z.enum(['a']).default('a'),
        tags: z.array(z.string()).default([]),
      }),
    ) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    expect(Object.keys(json.properties)).toEqual(['empty', 'kind', 'tags']);
    expect(json.properties.empty!.type).toBe('object');
    expect(json.properties.kind!.default).toBe('a');
    expect(json.properties.tags!.default).toEqual([]);
  });
});

describe('atLeastOneField', () => {
  const body = atLeastOneField(z.object({ a: z.string().optional(), b: z.number().optional() }), 'give one');

  it('refuses an empty body and accepts any one field', () => {
    expect(body.safeParse({}).success).toBe(false);
    expect(body.safeParse({ b: 1 }).success).toBe(true);
  });

  it('states the same rule in the document', () => {
    expect(inputSchema(body).anyOf).toEqual([{ required: ['a'] }, { required: ['b'] }]);
  });
});
