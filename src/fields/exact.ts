import { ABSENT, PRESENT, PRESENCE_NAMES, PresenceCheck, UNKNOWN, type PresenceName } from "./presence.js";

// The second pass of the presence check (docs/fields.md): a record the byte search says may carry a
// field is parsed, and each field's pointer is looked for in the document, array items included. What
// does not parse (not strict UTF-8, not JSON: a dialect, two documents, a trailing comma) is unknown
// for every field: the byte search found a name where a key would be, and nobody can read what it is.

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A field's JSON Pointer as its property names, unescaped (`~1` is `/`, `~0` is `~`); `*` is any item. */
export function pathOf(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/**
 * Whether the document has a property at `path` from `at`: `*` stands for every item of an array (and
 * for a property literally named `*`, which reads the same: interest.ts). No recursion deeper than the
 * path, which interest.ts bounds to 16 segments; each node is visited at most once per segment.
 */
export function carries(node: unknown, path: readonly string[], at = 0): boolean {
  if (at === path.length) return true;
  if (typeof node !== "object" || node === null) return false;
  const name = path[at]!;
  if (Array.isArray(node)) {
    if (name !== "*") return false;
    for (let i = 0; i < node.length; i++) if (carries(node[i], path, at + 1)) return true;
    return false;
  }
  return Object.hasOwn(node, name) && carries((node as Record<string, unknown>)[name], path, at + 1);
}

/** What `everyParent` found: no parent of the field, every parent carrying it, or one lacking it. */
const NO_PARENT = 0;
const CARRIED = 1;
const LACKED = 2;

/**
 * Whether every object the field's parent pointer reaches carries it (`CARRIED`), one lacks it
 * (`LACKED`), or none is there (`NO_PARENT`: no such object, an empty array, items that are not
 * objects). What requiring the field at its place (in its parent's `required`) would ask of the record.
 */
export function everyParent(node: unknown, path: readonly string[], at = 0): number {
  if (typeof node !== "object" || node === null) return NO_PARENT;
  const name = path[at]!;
  if (Array.isArray(node)) {
    if (name !== "*" || at === path.length - 1) return NO_PARENT;
    let found = NO_PARENT;
    for (let i = 0; i < node.length; i++) {
      const item = everyParent(node[i], path, at + 1);
      if (item === LACKED) return LACKED;
      if (item === CARRIED) found = CARRIED;
    }
    return found;
  }
  const has = Object.hasOwn(node, name);
  if (at === path.length - 1) return has ? CARRIED : LACKED;
  return has ? everyParent((node as Record<string, unknown>)[name], path, at + 1) : NO_PARENT;
}

/** The payload from `start` as strict UTF-8 JSON, or `undefined` when it is not (JSON has no undefined). */
export function readDocument(bytes: Uint8Array, start: number): unknown {
  try {
    return JSON.parse(utf8.decode(start === 0 ? bytes : bytes.subarray(start))) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A field as the exact read looks for it. `every`: the record carries it only when every object at its
 * parent's place does, and at least one is there (an optional field's "ready to require" asks that of
 * every record); otherwise one is enough (a deprecated field's use).
 */
export interface FieldPlace {
  readonly pointer: string;
  readonly every: boolean;
}

/**
 * Both passes for a subject's fields: the byte search per distinct last name (`keys`), then, for a
 * record it says may carry one, the exact read per field. `verdicts[i]` is field `i`'s after `check`.
 */
export class FieldPresence {
  readonly #paths: string[][];
  readonly #every: boolean[];
  /** Each field's index among the byte search's keys (`/sku` and `/items/*\/sku` share one). */
  readonly #keyOf: number[];
  readonly #keys: Uint8Array;
  readonly #check: PresenceCheck;
  readonly verdicts: Uint8Array;
  /** Records read exactly so far (the byte search said "maybe" for one of their fields). */
  reads = 0;

  constructor(fields: readonly FieldPlace[]) {
    this.#paths = fields.map((f) => pathOf(f.pointer));
    this.#every = fields.map((f) => f.every);
    const keys = [...new Set(this.#paths.map((path) => path[path.length - 1] ?? ""))];
    this.#keyOf = this.#paths.map((path) => keys.indexOf(path[path.length - 1] ?? ""));
    this.#check = new PresenceCheck(keys);
    this.#keys = new Uint8Array(keys.length);
    this.verdicts = new Uint8Array(fields.length);
  }

  /** Fills `verdicts` for the payload `bytes[start..]` (`frame`: see `PresenceCheck.check`). */
  check(bytes: Uint8Array | null, start: number, frame?: Parameters<PresenceCheck["check"]>[3]): void {
    const keys = this.#keys;
    const verdicts = this.verdicts;
    const keyOf = this.#keyOf;
    const maybe = this.#check.check(bytes, start, keys, frame);
    if (maybe === 0 || bytes === null) {
      for (let i = 0; i < verdicts.length; i++) verdicts[i] = keys[keyOf[i]!]!;
      return;
    }
    this.reads++;
    const document = readDocument(bytes, start);
    for (let i = 0; i < verdicts.length; i++) {
      const key = keys[keyOf[i]!]!;
      if (document === undefined || key === UNKNOWN) verdicts[i] = UNKNOWN;
      else if (key !== PRESENT) verdicts[i] = ABSENT;
      else
        verdicts[i] = (
          this.#every[i]
            ? everyParent(document, this.#paths[i]!) === CARRIED
            : carries(document, this.#paths[i]!)
        )
          ? PRESENT
          : ABSENT;
    }
  }
}

/** Both passes on one payload, by name: for tests, commands and anything off the hot path. */
export function fieldPresenceOf(
  payload: string | Uint8Array | null,
  fields: readonly FieldPlace[],
): PresenceName[] {
  const presence = new FieldPresence(fields);
  presence.check(typeof payload === "string" ? Buffer.from(payload) : payload, 0);
  return [...presence.verdicts].map((p) => PRESENCE_NAMES[p]!);
}
