import type { FormatDecodeReason } from "./format.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const parsed: { document: unknown; text: string } = { document: undefined, text: "" };

/**
 * Documents nested deeper than this are `too_deep`, judged once on the parsed document before anything
 * recurses into it. The validators and the corpus recurse with the document and would run out of stack
 * somewhere past 2,000 levels, at a depth that depends on the thread and on what was on the stack
 * already: two identical records could be judged differently. No JSON a producer means has 256 levels.
 */
export const MAX_DOCUMENT_DEPTH = 256;
/** Text shorter than this cannot nest deeper than the limit: each level takes two characters. */
const SHORTEST_TOO_DEEP = 2 * (MAX_DOCUMENT_DEPTH + 1);
const nodes: object[] = [];
const depths: number[] = [];

/** Whether a parsed document nests deeper than `limit`: a walk with its own stack, never recursion. */
export function deeperThan(document: unknown, limit: number): boolean {
  if (typeof document !== "object" || document === null) return false;
  nodes.length = 0;
  depths.length = 0;
  nodes.push(document);
  depths.push(1);
  let deeper = false;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) {
      deeper = true;
      break;
    }
    if (Array.isArray(node)) {
      for (const child of node as unknown[])
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
    } else {
      for (const key in node) {
        const child = (node as Record<string, unknown>)[key];
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  nodes.length = 0;
  depths.length = 0;
  return deeper;
}

/**
 * Decodes a payload (from `start`, past a wire prefix) as strict UTF-8 and parses its JSON, once; the
 * reason when it cannot (`too_deep` past MAX_DOCUMENT_DEPTH levels). The returned box (the document and the JSON text it was parsed from) is
 * reused by the next call: read it at once.
 */
export function parsePayload(
  value: Uint8Array,
  start: number,
): { document: unknown; text: string } | FormatDecodeReason {
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
  if (text.length >= SHORTEST_TOO_DEEP && deeperThan(parsed.document, MAX_DOCUMENT_DEPTH)) {
    parsed.document = undefined;
    return "too_deep";
  }
  parsed.text = text;
  return parsed;
}

/** Whether the validators (or the corpus) ran out of stack on a document nested too deep. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
