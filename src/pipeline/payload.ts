import type { DecodeReason } from "./record.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const parsed: { document: unknown; text: string } = { document: undefined, text: "" };

/**
 * Decodes a payload (from `start`, past a wire prefix) as strict UTF-8 and parses its JSON, once; the
 * reason when it cannot. The returned box (the document and the JSON text it was parsed from) is
 * reused by the next call: read it at once.
 */
export function parsePayload(
  value: Uint8Array,
  start: number,
): { document: unknown; text: string } | DecodeReason {
  let text: string;
  try {
    text = utf8.decode(start === 0 ? value : value.subarray(start));
  } catch {
    return "not_utf8";
  }
  try {
    parsed.document = JSON.parse(text);
  } catch {
    return "not_json";
  }
  parsed.text = text;
  return parsed;
}

/** Whether the validators (or the corpus) ran out of stack on a document nested too deep. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
