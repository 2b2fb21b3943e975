import { SchemawatchError } from "../errors.js";
import type { Where } from "./registries.js";
import type { Config, FieldsConfig } from "./types.js";

/** A subject's `fields` block as the file writes it (the schema has checked each pointer's syntax). */
export interface RawFields {
  add?: string[];
  exclude?: string[];
  replaces?: Record<string, string>;
}

/**
 * Fields tracked per subject at most: each costs a search of every record's bytes and 3 series per
 * (producer, writer version). Here, because the fields the config names must all fit (or some would
 * be left out without a word); src/fields/interest.ts caps the schemas' fields by it.
 */
export const MAX_FIELDS = 16;

const refuse = (at: string, message: string) => new SchemawatchError("CONFIG_INVALID", `${at}: ${message}`);

/** The property name a pointer ends with, unescaped: what the byte check of every record looks for. */
const lastName = (pointer: string) =>
  pointer
    .slice(pointer.lastIndexOf("/") + 1)
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");

/**
 * A pointer names a field when it ends with a property: not the document itself (``), not "any item
 * of an array" (`/items/*`), which has no name a record's bytes could be searched for.
 */
function checkField(pointer: string, at: string): void {
  if (pointer === "")
    throw refuse(at, "'' is the whole document, not a field: name a property, such as /amount");
  if (pointer.endsWith("/*"))
    throw refuse(
      at,
      `'${pointer}' ends with *, any item of an array, which is not a property: name a property of the items, such as ${pointer}/sku`,
    );
  if (pointer.endsWith("/"))
    throw refuse(at, `'${pointer}' ends with an empty name: name a property, such as ${pointer}amount`);
}

/**
 * A subject's `fields` block, checked as a whole: what the schema cannot say (a field that replaces
 * itself, a chain of renames, a field both added and left out) is refused here, naming the key and
 * its line, so a mistake stops start-up rather than leaving a rename untracked.
 */
export function fieldsFrom(raw: RawFields, index: number, where: Where): FieldsConfig {
  const at = (...segments: (string | number)[]) => where(["subjects", index, "fields", ...segments]);
  const add = raw.add ?? [];
  const exclude = raw.exclude ?? [];
  const replaces = raw.replaces ?? {};
  add.forEach((pointer, i) => checkField(pointer, at("add", i)));
  exclude.forEach((pointer, i) => {
    if (pointer === "")
      throw refuse(at("exclude", i), "'' would leave out every field: remove the fields block");
  });
  const replacedBy = new Map<string, string>();
  for (const [replacement, replaced] of Object.entries(replaces)) {
    const key = at("replaces", replacement);
    checkField(replacement, key);
    checkField(replaced, key);
    if (replacement === replaced) throw refuse(key, `'${replaced}' cannot replace itself`);
    if (lastName(replacement) === lastName(replaced))
      throw refuse(
        key,
        `${replacement} and ${replaced} end in the same name, '${lastName(replaced)}', and a record's bytes are searched for a field by its name: the two could not be told apart; rename the property itself`,
      );
    const other = replacedBy.get(replaced);
    if (other !== undefined)
      throw refuse(
        key,
        `${replaced} is replaced by ${other} already: a field is replaced by one other field`,
      );
    replacedBy.set(replaced, replacement);
  }
  for (const [replaced, replacement] of replacedBy) {
    const next = replacedBy.get(replacement);
    if (next !== undefined)
      throw refuse(
        at("replaces", next),
        `${next} replaces ${replacement}, which replaces ${replaced} itself: finish one rename (drain ${replaced}) before the next begins`,
      );
  }
  const named = new Set([...add, ...replacedBy.keys(), ...replacedBy.values()]);
  exclude.forEach((pointer, i) => {
    for (const field of named)
      if (field === pointer || field.startsWith(`${pointer}/`))
        throw refuse(
          at("exclude", i),
          `${pointer} leaves out ${field}, which this fields block names (under add or replaces): keep one of the two`,
        );
  });
  if (named.size > MAX_FIELDS)
    throw refuse(
      at(),
      `names ${named.size} fields (under add and replaces), and at most ${MAX_FIELDS} are tracked per subject: name fewer`,
    );
  return { add, exclude, replaces };
}

/** Each subject's `fields` block, by subject name (subjects without one are left out). */
export function fieldBlocks(config: Config): ReadonlyMap<string, FieldsConfig> {
  return new Map(config.subjects.flatMap((s) => (s.fields ? [[s.name, s.fields] as const] : [])));
}
