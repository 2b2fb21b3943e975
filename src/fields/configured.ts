import type { FieldsConfig } from "../config/types.js";
import type { FieldOfInterest } from "./interest.js";

/** Deprecated fields first (their drain is a verdict), then shallower pointers, then by pointer. */
export function byPriority(a: FieldOfInterest, b: FieldOfInterest): number {
  const kind = Number(a.deprecatedIn.length === 0) - Number(b.deprecatedIn.length === 0);
  if (kind !== 0) return kind;
  const depth = depthOf(a.pointer) - depthOf(b.pointer);
  if (depth !== 0) return depth;
  return a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0;
}

function depthOf(pointer: string): number {
  let depth = 0;
  for (let i = 0; i < pointer.length; i++) if (pointer.charCodeAt(i) === 0x2f) depth++;
  return depth;
}

/** Whether `pointer` is one of `rules` or lies under one (`fields.exclude`). */
export function excluded(pointer: string, rules: readonly string[]): boolean {
  return rules.some((rule) => pointer === rule || pointer.startsWith(`${rule}/`));
}

/** The property name a pointer ends with, unescaped (RFC 6901). */
const nameOf = (pointer: string) =>
  pointer
    .slice(pointer.lastIndexOf("/") + 1)
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");

/** What the schemas say that the config's fields are judged by. */
export interface SchemaFacts {
  /** The newest active version: an optional field is optional there. */
  readonly newestActive: string | undefined;
  /**
   * The version a field the config deprecates is deprecated in: the newest active one, else the
   * newest not retired (a subject of candidates and deprecated versions only).
   */
  readonly newest: string | undefined;
  /** Pointers the newest active version requires. */
  readonly required: ReadonlySet<string>;
}

/**
 * The fields the config names, in its order: each rename's replaced field then its replacement, then
 * the added ones. Each keeps what the schemas say of it (`found`: the schemas' fields of interest);
 * a replaced field is deprecated even when no schema marks it (in `schemas.newest`, its drain being
 * the question), and a field the schemas do not make a field of interest is optional
 * in the newest active version unless that version requires it.
 */
export function configuredFields(
  found: readonly FieldOfInterest[],
  config: FieldsConfig,
  schemas: SchemaFacts,
): FieldOfInterest[] {
  const byPointer = new Map(found.map((f) => [f.pointer, f]));
  const base = (pointer: string): FieldOfInterest =>
    byPointer.get(pointer) ?? {
      pointer,
      key: nameOf(pointer),
      deprecatedIn: [],
      optionalIn: schemas.required.has(pointer) ? undefined : schemas.newestActive,
    };
  const fields: FieldOfInterest[] = [];
  const listed = new Set<string>();
  const push = (field: FieldOfInterest) => {
    if (listed.has(field.pointer)) return;
    listed.add(field.pointer);
    fields.push(field);
  };
  for (const [replacement, replaced] of Object.entries(config.replaces)) {
    const old = base(replaced);
    const deprecatedIn =
      old.deprecatedIn.length > 0 || schemas.newest === undefined ? old.deprecatedIn : [schemas.newest];
    push({ ...old, deprecatedIn, replacedBy: replacement });
    push({ ...base(replacement), replaces: replaced });
  }
  for (const pointer of config.add) push({ ...base(pointer), added: true });
  return fields;
}
