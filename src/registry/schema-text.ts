/**
 * A registered schema as a version holds it: the registry's text parsed as JSON (JSON Schema, Avro),
 * or, for a format whose text is not JSON (Protobuf's `.proto`), the text itself in a box, so that a
 * saved snapshot keeps it and the format parses it as it came.
 */
export interface SchemaTextBox {
  readonly $schemaText: string;
}

/**
 * The registry's `schema` text as a version holds it. JSON is parsed; text that is not JSON is kept
 * in a box when `mayBeText` (a version of another format than JSON Schema), and throws otherwise.
 */
export function holdSchema(text: string, mayBeText: boolean): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (mayBeText) return { $schemaText: text } satisfies SchemaTextBox;
    throw error;
  }
}

/** The text a held schema came from, as its format parses it. */
export function schemaText(held: unknown): string {
  if (typeof held === "object" && held !== null && typeof (held as SchemaTextBox).$schemaText === "string")
    return (held as SchemaTextBox).$schemaText;
  return JSON.stringify(held);
}
