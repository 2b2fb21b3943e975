import { ABSENT, PRESENT, PRESENCE_NAMES, PresenceCheck, UNKNOWN, type PresenceName } from "./presence.js";
import { FieldScan } from "./scan.js";

// The second pass of the presence check (docs/fields.md): a record the byte search says may carry a
// field is read exactly (scan.ts: one pass over its bytes, no document built), and each field's pointer
// is followed through it, array items included. What is not JSON (not strict UTF-8, a dialect, two
// documents, a trailing comma) is unknown for every field: the byte search found a name where a key
// would be, and nobody can read what it is.

/** A field's JSON Pointer as its property names, unescaped (`~1` is `/`, `~0` is `~`); `*` is any item. */
export function pathOf(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/**
 * A field as the exact read looks for it. `every`: the record carries it only when every place its
 * pointer reaches leads to the key (no object without the next name, no empty array, no value of
 * another kind on the way) and one does: what an optional field's "ready to require" asks of every
 * record. Otherwise one object carrying it is enough (a deprecated field's use; a key literally named
 * `*` then reads as the array wildcard does).
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
  readonly #scan: FieldScan;
  readonly #every: boolean[];
  /** Each field's index among the byte search's keys (`/sku` and `/items/*\/sku` share one). */
  readonly #keyOf: number[];
  readonly #keys: Uint8Array;
  readonly #check: PresenceCheck;
  readonly verdicts: Uint8Array;
  /** Records read exactly so far (the byte search said "maybe" for one of their fields). */
  reads = 0;

  constructor(fields: readonly FieldPlace[]) {
    const paths = fields.map((f) => pathOf(f.pointer));
    this.#every = fields.map((f) => f.every);
    // Bits of a 32-bit mask: MAX_FIELDS (16) a subject.
    this.#scan = new FieldScan(
      paths,
      fields.reduce((any, f, i) => (f.every ? any : any | (1 << i)), 0),
    );
    const keys = [...new Set(paths.map((path) => path[path.length - 1] ?? ""))];
    this.#keyOf = paths.map((path) => keys.indexOf(path[path.length - 1] ?? ""));
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
    const scan = this.#scan;
    const json = scan.scan(bytes, start);
    for (let i = 0; i < verdicts.length; i++) {
      const key = keys[keyOf[i]!]!;
      const bit = 1 << i;
      if (!json || key === UNKNOWN) verdicts[i] = UNKNOWN;
      else if (key !== PRESENT || (scan.carried & bit) === 0) verdicts[i] = ABSENT;
      else verdicts[i] = this.#every[i] && (scan.lacked & bit) !== 0 ? ABSENT : PRESENT;
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
