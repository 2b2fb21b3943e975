import { isObject, type Loc } from "../document.js";
import { passesLocal, testPattern } from "../values.js";
import type { View } from "../view.js";
import type { PartValues } from "./parts.js";
import { patternSamples } from "./regex.js";
import { expand, hintsOf, type Scope } from "./scope.js";

/** The longest array (and the most keys) built: enough for the counts schemas name in practice, small enough to check. */
export const MAX_LENGTH = 100;

/** How many variations one object or array may offer, at the top of the document and below it. */
export const budget = (depth: number): number => (depth === 0 ? 3000 : depth < 3 ? 64 : 12);

/** The schemas that apply to the value of `key`, or undefined when some view forbids the key. */
function keySchemas(generator: PartValues, views: readonly View[], key: string): Loc[] | undefined {
  // Stryker disable next-line ArrayDeclaration: a non-schema among a key's schemas is skipped like an absent one
  const out: Loc[] = [];
  const declaredAnywhere = views.some(
    (v) => v.properties.has(key) || [...v.patternProperties.keys()].some((p) => testPattern(p, key) === true),
  );
  for (const view of views) {
    const own = view.properties.get(key);
    const patterns = [...view.patternProperties]
      .filter(([p]) => testPattern(p, key) === true)
      .map(([, l]) => l);
    if (own) out.push(own);
    out.push(...patterns);
    if (!own && patterns.length === 0) {
      if (view.additionalProperties) out.push(view.additionalProperties);
      else if (view.unevaluatedProperties && !declaredAnywhere) out.push(view.unevaluatedProperties);
    }
    if (view.propertyNames && !keyAllowed(generator, view.propertyNames, key)) return undefined;
  }
  // Stryker disable next-line ConditionalExpression,ArrowFunction: a `false` among them leaves the generator no scope, hence no value, as undefined does; this only skips the call
  if (out.some((loc) => generator.model.deref(loc).node === false)) return undefined;
  return out;
}

function keyAllowed(generator: PartValues, names: Loc, key: string): boolean {
  const target = generator.model.deref(names);
  if (target.node === false) return false;
  return !isObject(target.node) || passesLocal(generator.model.view(target), key);
}

/** Short names that often fall on one side of a key pattern and not the other: a digit, a dot, a dash. */
const PROBES = ["0", "_", "-", "A", "a.b", "a-b", "0a", ".a"];

/**
 * Up to four probe names that some pattern of these views matches and another does not: where two
 * versions' patternProperties differ (`^[a-zA-Z][\w.-]*$` -> `^[\w-]+$`), such a key is the break.
 */
export function boundaryKeys(views: readonly View[]): string[] {
  const patterns = [...new Set(views.flatMap((v) => [...v.patternProperties.keys()]))];
  if (patterns.length < 2) return [];
  return PROBES.filter((key) => {
    const matches = patterns.map((p) => testPattern(p, key) === true);
    return matches.includes(true) && matches.includes(false);
  }).slice(0, 4);
}

/** A key no view declares and no pattern matches, for the "unknown key" column of the article. */
function freshKey(views: readonly View[]): string {
  for (const name of ["x", "extra", "x-unknown", "zz9"]) {
    const taken = views.some(
      (v) =>
        v.properties.has(name) || [...v.patternProperties.keys()].some((p) => testPattern(p, name) === true),
    );
    if (!taken) return name;
  }
  return "x-schemawatch";
}

/** Up to `count` names matching a pattern: its samples, and samples with digits around them. */
function namesFor(pattern: string, count: number): string[] {
  const samples = patternSamples(pattern, count);
  const out = new Set(samples);
  for (let i = 1; out.size < count && i <= count; i++) {
    for (const sample of samples) {
      for (const name of [`${sample}${i}`, `${i}${sample}`])
        if (out.size < count && testPattern(pattern, name) === true) out.add(name);
    }
  }
  return [...out];
}

/** Keys the document must carry: `required`, and what `dependentRequired` adds for present keys. */
function closure(views: readonly View[], keys: Iterable<string>): string[] {
  const out = new Set(keys);
  for (const view of views) for (const name of view.required) out.add(name);
  for (let changed = true; changed;) {
    changed = false;
    for (const view of views) {
      for (const [key, dependent] of view.dependentRequired) {
        if (!out.has(key)) continue;
        for (const name of dependent.value) {
          if (out.has(name)) continue;
          out.add(name);
          changed = true;
        }
      }
    }
  }
  return [...out];
}

/**
 * Objects of a scope: the base object (required keys, plain values), then one change at a time: each
 * key the scope or the other version names gets each of its candidate values, round-robin over keys so
 * that a cut list still touches every key; an unknown key comes last.
 */
export function objects(
  generator: PartValues,
  scope: Scope,
  theirs: readonly View[],
  depth: number,
  forced: readonly string[] = [],
): unknown[] {
  let views = scope.views;
  let hints = theirs;
  // The other version's dependent schemas steer too: values at their edges, counts they set.
  const theirDependents = hints.flatMap((v) => [...v.dependentSchemas.values()].map((d) => d.value));
  if (depth < 6)
    // Stryker disable next-line MethodExpression: a view twice among the hints steers as it does once (hintsOf and the name sets drop repeats)
    hints = [...hints, ...hintsOf(generator.model, theirDependents).views.filter((v) => !hints.includes(v))];
  const present = closure(views, forced);
  // A dependent schema of a present key joins the scope.
  const dependents = views.flatMap((v) =>
    present.flatMap((k) => (v.dependentSchemas.get(k) ? [v.dependentSchemas.get(k)!.value] : [])),
  );
  // The other ways to satisfy them (a dependent's anyOf branches, say) give plain objects of their own.
  let others: Scope[] = [];
  if (dependents.length > 0 && depth < 6) {
    const [widened, ...rest] = expand(generator.model, [...scope.locs, ...dependents]);
    if (!widened) return [];
    views = widened.views;
    others = rest.slice(0, 3);
  }
  const required = closure(views, present);
  const cache = new Map<string, unknown[]>();
  const valuesOf = (key: string): unknown[] => {
    let values = cache.get(key);
    if (!values) {
      const mine = keySchemas(generator, views, key);
      // Stryker disable next-line ArrayDeclaration: a non-schema among the other version's schemas is skipped like an absent one
      const theirs = keySchemas(generator, hints, key) ?? [];
      values = mine ? generator.values(mine, theirs, depth + 1, depth < 2 ? 48 : 16) : [];
      // Stryker disable next-line CallExpression: the cache only saves work: the generator's memo gives the same values again
      cache.set(key, values);
    }
    return values;
  };
  const base: Record<string, unknown> = {};
  for (const key of required) {
    const [first] = valuesOf(key);
    if (first === undefined) return [];
    base[key] = first;
  }
  const declared = new Set(views.flatMap((v) => [...v.properties.keys()]));
  const named = new Set([...declared]);
  for (const view of hints) {
    for (const key of [
      ...view.properties.keys(),
      ...view.required,
      ...view.dependentRequired.keys(),
      ...view.dependentSchemas.keys(),
    ])
      named.add(key);
  }
  for (const view of [...views, ...hints]) {
    for (const pattern of view.patternProperties.keys())
      for (const key of patternSamples(pattern, 2)) named.add(key);
  }
  for (const key of boundaryKeys([...views, ...hints])) named.add(key);
  // Names a `not` mentions: what the other version forbids is worth carrying on purpose.
  for (const view of [...views, ...hints]) {
    const negated = view.not && generator.model.deref(view.not);
    if (!negated || !isObject(negated.node)) continue;
    const inner = generator.model.view(negated);
    for (const key of [...inner.required, ...inner.properties.keys()]) named.add(key);
  }
  named.add(freshKey([...views, ...hints]));
  // Names at the edges of the other version's propertyNames.
  const theirNames = hints.flatMap((v) => (v.propertyNames ? [v.propertyNames] : []));
  if (theirNames.length > 0) {
    const mine = views.flatMap((v) => (v.propertyNames ? [v.propertyNames] : []));
    const stringType: Loc = { node: { type: "string" }, ptr: "", doc: theirNames[0]!.doc };
    for (const name of generator.values([stringType, ...mine], theirNames, depth + 1, 6)) {
      if (typeof name === "string") named.add(name);
    }
  }
  // Keys to fill an object up to a count: the named ones, more samples of this version's patterns,
  // then fresh names (which only open objects accept).
  const fillers = (size: number): string[] => [
    ...named,
    ...views.flatMap((v) => [...v.patternProperties.keys()].flatMap((p) => namesFor(p, size + 1))),
    ...Array.from({ length: size }, (_, i) => `x${i + 1}`),
  ];
  const fill = (from: Record<string, unknown>, size: number): Record<string, unknown> => {
    const filled = { ...from };
    for (const key of fillers(size)) {
      if (Object.keys(filled).length >= size) break;
      const [first] = Object.hasOwn(filled, key) ? [] : valuesOf(key);
      if (first !== undefined) filled[key] = first;
    }
    return filled;
  };
  const minProperties = Math.max(0, ...views.map((v) => v.minProperties ?? 0));
  if (minProperties <= MAX_LENGTH) Object.assign(base, fill(base, minProperties));
  const out: unknown[] = [base];
  const lanes: unknown[][] = [];
  for (const other of others) {
    const plain: Record<string, unknown> = {};
    for (const key of closure(other.views, present)) {
      const mine = keySchemas(generator, other.views, key);
      const [first] = mine
        ? generator.values(mine, keySchemas(generator, hints, key) ?? [], depth + 1, 4)
        : [];
      if (first === undefined) break;
      plain[key] = first;
    }
    if (Object.keys(plain).length === closure(other.views, present).length) lanes.unshift([plain]);
  }
  for (const key of required)
    lanes.push(
      valuesOf(key)
        .slice(1)
        .map((value) => ({ ...base, [key]: value })),
    );
  for (const key of named) {
    if (Object.hasOwn(base, key)) continue;
    // Either version's dependents: with the key present, the other keys vary against what it brings.
    const dependsOn = [...views, ...hints].some(
      (v) => v.dependentRequired.has(key) || v.dependentSchemas.has(key),
    );
    if (dependsOn && depth < 6)
      lanes.push(objects(generator, scope, hints, depth + 1, [...present, key]).slice(0, depth < 2 ? 32 : 8));
    else lanes.push(valuesOf(key).map((value) => ({ ...base, [key]: value })));
  }
  // Objects with more keys, for the other version's maxProperties (or this one's).
  // Objects with more keys, at either version's maxProperties and minProperties edges.
  const limits = [...views, ...hints].flatMap((v) => [
    ...(v.maxProperties !== undefined ? [v.maxProperties + 1, v.maxProperties] : []),
    ...(v.minProperties !== undefined ? [v.minProperties - 1, v.minProperties] : []),
  ]);
  for (const size of new Set(limits)) {
    if (size > MAX_LENGTH || size <= Object.keys(base).length) continue;
    lanes.unshift([fill(base, size)]);
  }
  for (let i = 0; out.length < budget(depth) && lanes.some((lane) => i < lane.length); i++) {
    for (const lane of lanes) if (i < lane.length) out.push(lane[i]);
  }
  return out;
}
