/**
 * Field tags, and which of them deprecate a field: one rule for every binary format, whether a tag is
 * written inline (Avro's `"confluent:tags"` on a field) or kept in the registered version's
 * metadata (Confluent's data contracts: `{"metadata": {"tags": {"shop.Order.amount": ["DEPRECATED"]}}}`).
 */

/**
 * The tag that marks a field deprecated, compared without case. A `doc` saying "deprecated" is prose,
 * not a contract, and is not read.
 */
export const DEPRECATED_TAG = "deprecated";

/**
 * A registered version's metadata tags: a field's full name, or a pattern of names (`shop.Order.*`,
 * `**.amount`), to its tag names, as the registry returned them. Avro names a field by its record's
 * full name and the field's (`shop.Order.amount`), Protobuf by the field's full name
 * (`shop.Order.amount`: package, messages, field).
 */
export type MetadataTags = Readonly<Record<string, readonly string[]>>;

/** Whether one of `tags` is the deprecation tag. */
export const deprecates = (tags: readonly unknown[]): boolean =>
  tags.some((t) => typeof t === "string" && t.toLowerCase() === DEPRECATED_TAG);

/** Metadata keys longer than this are not matched: a bound on the matcher's work (names × patterns). */
const MAX_PATTERN = 1_000;

/**
 * Whether the field named `fullName` is tagged deprecated by a registered version's metadata tags.
 * Patterns are matched as Confluent's serializers match them (its `WildcardMatcher`): `?` is one
 * character other than `.`, `*` any run of them (within one name), `**` any run at all (across
 * names; `**.*` reads as `**`), `\` makes the next character literal, and the pattern must cover
 * the whole name.
 */
export function taggedDeprecated(tags: MetadataTags | undefined, fullName: string): boolean {
  if (tags === undefined) return false;
  for (const [pattern, names] of Object.entries(tags))
    if (deprecates(names) && pattern.length <= MAX_PATTERN && matchesName(fullName, pattern)) return true;
  return false;
}

/**
 * The glob match above, as a walk over the pattern that keeps, for each prefix of `name`, whether
 * the pattern read so far matches it: time |pattern| × |name| whatever the pattern holds (a
 * backtracking regular expression could take exponential time on a crafted key).
 */
export function matchesName(name: string, pattern: string): boolean {
  const glob = pattern.replaceAll("**.*", "**");
  const n = name.length;
  let matched = new Array<boolean>(n + 1).fill(false);
  matched[0] = true;
  for (let i = 0; i < glob.length;) {
    let c = glob[i++]!;
    const next = new Array<boolean>(n + 1).fill(false);
    if (c === "*") {
      const across = glob[i] === "*";
      if (across) i++;
      next[0] = matched[0]!;
      for (let j = 0; j < n; j++) next[j + 1] = matched[j + 1]! || (next[j]! && (across || name[j] !== "."));
    } else {
      const any = c === "?";
      if (c === "\\" && i < glob.length) c = glob[i++]!;
      for (let j = 0; j < n; j++) next[j + 1] = matched[j]! && (any ? name[j] !== "." : name[j] === c);
    }
    matched = next;
  }
  return matched[n]!;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The `metadata.tags` of a registry's answer for a version, keeping only entries of the documented
 * shape (a key to a list of strings); undefined when it has none. A malformed entry is left out, not
 * an error: the registry's content is not the user's config.
 */
export function metadataTagsOf(body: unknown): MetadataTags | undefined {
  if (!isObject(body) || !isObject(body["metadata"])) return undefined;
  const tags = body["metadata"]["tags"];
  if (!isObject(tags)) return undefined;
  const out: Record<string, readonly string[]> = {};
  for (const [key, value] of Object.entries(tags))
    if (Array.isArray(value) && value.every((t) => typeof t === "string")) out[key] = value as string[];
  return Object.keys(out).length > 0 ? out : undefined;
}
