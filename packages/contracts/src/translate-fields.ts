/** For each field it names: how to translate that field's value. */
export type FieldTranslators<Source> = { [Field in keyof Source]?: (value: Source[Field]) => unknown };

/** `Source` with the named fields of the translated types. */
export type Translated<Source, Translators> = Omit<Source, keyof Translators> & {
  [Field in keyof Translators]: Translators[Field] extends (value: never) => infer Result ? Result : never;
};

/**
 * A message or answer with some closed-set fields translated and every other field as it is: a
 * service's gRPC edge encodes names (`{ time_range: TIME_RANGES.toProto }`), a gateway presenter
 * decodes enum values (`{ time_range: nameOf(TIME_RANGES) }`). Translators go by field so that a
 * message's many enum fields are one line each, not a copied spread per message.
 */
export function translateFields<Source extends object, Translators extends FieldTranslators<Source>>(
  source: Source,
  translators: Translators,
): Translated<Source, Translators> {
  const result = { ...source } as Record<string, unknown>;
  for (const [field, translate] of Object.entries(translators) as [string, (value: unknown) => unknown][]) {
    result[field] = translate(result[field]);
  }
  return result as Translated<Source, Translators>;
}
