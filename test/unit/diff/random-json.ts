// Random schemas, focused edits of them, and documents to test the pair with: written for the
// soundness search alone, sharing nothing with the product's witness generator, so that a rule the
// product gets wrong is not also what decides which documents are tried.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = { [key: string]: Json };

/** A seeded generator (an LCG, like the old search's), so every failure reproduces. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number) => next() < p;
  const some = <T>(items: readonly T[], p: number): T[] => items.filter(() => next() < p);
  return { next, int, pick, chance, some };
}
export type Rng = ReturnType<typeof random>;

/** "2020": 2020-12 keywords; "07": draft-07's (tuple `items`, `dependencies`, `definitions`, asserted formats). */
export type Style = "2020" | "07";

const KEYS = ["a", "b", "c"];
const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"];
const FORMATS = ["date", "email", "ipv4"];
const PATTERNS = ["^a", "b$", "^[ab]*$"];
const SCALARS: readonly Json[] = [null, true, false, 0, 1, 2, -1, 0.5, "", "a", "ab", "b"];
const isNode = (v: Json | undefined): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

function numeric(rng: Rng, s: Node, integer: boolean): void {
  const bound = () => (integer || rng.chance(0.8) ? rng.int(5) - 1 : rng.int(5) - 1.5);
  if (rng.chance(0.5)) s[rng.chance(0.5) ? "minimum" : "exclusiveMinimum"] = bound();
  if (rng.chance(0.5)) s[rng.chance(0.5) ? "maximum" : "exclusiveMaximum"] = bound() + 1;
  if (rng.chance(0.15)) s["multipleOf"] = rng.pick([0.5, 2]);
}

function text(rng: Rng, s: Node, style: Style): void {
  if (rng.chance(0.4)) s["minLength"] = rng.int(3);
  if (rng.chance(0.4)) s["maxLength"] = rng.int(3) + 1;
  if (rng.chance(0.3)) s["pattern"] = rng.pick(PATTERNS);
  if (style === "07" && rng.chance(0.3)) s["format"] = rng.pick(FORMATS);
}

function object(rng: Rng, s: Node, depth: number, style: Style): void {
  s["properties"] = Object.fromEntries(rng.some(KEYS, 0.5).map((k) => [k, schema(rng, depth + 1, style)]));
  if (rng.chance(0.6)) s["required"] = rng.some(KEYS, 0.4);
  if (rng.chance(0.3)) s["additionalProperties"] = rng.chance(0.5) ? false : schema(rng, depth + 1, style);
  if (rng.chance(0.15)) s["patternProperties"] = { "^a": schema(rng, depth + 1, style) };
  if (rng.chance(0.15)) s["minProperties"] = rng.int(3);
  if (rng.chance(0.15)) s["maxProperties"] = rng.int(3) + 1;
  if (rng.chance(0.1)) s["propertyNames"] = rng.pick<Json>([{ maxLength: 1 }, { pattern: "^[ab]" }]);
  if (rng.chance(0.25)) {
    const dependency = (): Json => (rng.chance(0.5) ? [rng.pick(KEYS)] : schema(rng, depth + 1, style));
    if (style === "07") s["dependencies"] = { [rng.pick(KEYS)]: dependency() };
    else if (rng.chance(0.5)) s["dependentRequired"] = { [rng.pick(KEYS)]: [rng.pick(KEYS)] };
    else s["dependentSchemas"] = { [rng.pick(KEYS)]: schema(rng, depth + 1, style) };
  }
}

function array(rng: Rng, s: Node, depth: number, style: Style): void {
  if (rng.chance(0.4)) {
    const tuple = Array.from({ length: rng.int(2) + 1 }, () => schema(rng, depth + 1, style));
    const rest = rng.chance(0.5) ? rng.pick<Json>([false, schema(rng, depth + 1, style)]) : undefined;
    if (style === "2020") {
      s["prefixItems"] = tuple;
      if (rest !== undefined) s["items"] = rest;
    } else {
      s["items"] = tuple;
      if (rest !== undefined) s["additionalItems"] = rest;
    }
  } else {
    if (rng.chance(0.7)) s["items"] = schema(rng, depth + 1, style);
    // ajv 8 lets `contains` pass an empty array beside `prefixItems`: never together.
    if (rng.chance(0.2)) s["contains"] = schema(rng, depth + 1, style);
  }
  if (rng.chance(0.3)) s["minItems"] = rng.int(3);
  if (rng.chance(0.3)) s["maxItems"] = rng.int(3) + 1;
  if (rng.chance(0.15)) s["uniqueItems"] = true;
}

/** A random schema: one focus (a type's keywords, a combinator, a constant), sometimes more beside it. */
export function schema(rng: Rng, depth: number, style: Style): Json {
  if (depth > 2 || rng.chance(0.1)) return rng.pick<Json>([true, false, {}, { type: rng.pick(TYPES) }]);
  const s: Node = {};
  const focus = rng.pick(["integer", "number", "string", "object", "array", "combinator", "constant"]);
  if (focus === "integer" || focus === "number") {
    const other = rng.pick(TYPES);
    s["type"] = rng.chance(0.8) || other === focus ? focus : [focus, other];
    numeric(rng, s, focus === "integer");
  } else if (focus === "string") {
    s["type"] = "string";
    text(rng, s, style);
  } else if (focus === "object") {
    if (rng.chance(0.8)) s["type"] = "object";
    object(rng, s, depth, style);
  } else if (focus === "array") {
    if (rng.chance(0.8)) s["type"] = "array";
    array(rng, s, depth, style);
  } else if (focus === "constant") {
    if (rng.chance(0.5)) s["const"] = rng.pick(SCALARS);
    else s["enum"] = [...new Set(rng.some(SCALARS, 0.3))];
  } else {
    const which = rng.pick(["allOf", "anyOf", "oneOf", "not", "if"]);
    if (which === "not") s["not"] = schema(rng, depth + 1, style);
    else if (which === "if") {
      s["if"] = schema(rng, depth + 1, style);
      if (rng.chance(0.8)) s["then"] = schema(rng, depth + 1, style);
      if (rng.chance(0.6)) s["else"] = schema(rng, depth + 1, style);
    } else s[which] = [schema(rng, depth + 1, style), schema(rng, depth + 1, style)];
  }
  // A definition named by a $ref beside other keywords (draft-07: ajv applies both).
  // Only at depth 1: the definition (depth 2) never names itself.
  if (style === "07" && depth === 1 && rng.chance(0.1)) s["$ref"] = "#/definitions/d";
  if (style === "07" && depth === 0) s["definitions"] = { d: schema(rng, 2, style) };
  return s;
}

/** Keywords whose value maps names to schemas. */
const MAPS = ["properties", "patternProperties", "definitions", "dependentSchemas", "dependencies"];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/** Every schema object in a schema, for an edit to land anywhere in it. */
function nodes(s: Json | undefined, out: Node[] = []): Node[] {
  if (!isNode(s)) return out;
  out.push(s);
  for (const [key, value] of Object.entries(s)) {
    if (MAPS.includes(key) && isNode(value)) Object.values(value).forEach((v) => nodes(v, out));
    else if (LISTS.includes(key) && Array.isArray(value)) value.forEach((v) => nodes(v, out));
    else if (["additionalProperties", "additionalItems", "items", "contains", "propertyNames"].includes(key))
      nodes(value, out);
    else if (["not", "if", "then", "else"].includes(key)) nodes(value, out);
  }
  return out;
}

const BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const SWAP: Record<string, string> = {
  minimum: "exclusiveMinimum",
  exclusiveMinimum: "minimum",
  maximum: "exclusiveMaximum",
  exclusiveMaximum: "maximum",
};
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];

/** One focused edit, somewhere in a copy of `s`: the changes the diff has a rule for. */
export function edit(rng: Rng, before: Json, style: Style): Json {
  const after = structuredClone(before);
  // An edit inside the definition changes something only where a $ref names it: mostly elsewhere.
  const defined = new Set(
    isNode(after) && isNode(after["definitions"]) ? nodes(after["definitions"]["d"]) : [],
  );
  const all = nodes(after).filter((n) => !defined.has(n) || rng.chance(0.3));
  const n = all.length > 0 ? rng.pick(all) : undefined;
  if (n === undefined) return schema(rng, 0, style);
  const keys = Object.keys(n);
  const bounds = keys.filter((k) => BOUNDS.includes(k));
  const counts = keys.filter((k) => COUNTS.includes(k));
  // A node with bounds mostly has one of them moved or made (non-)exclusive: the subtlest of the rules.
  const roll = bounds.length > 0 && rng.chance(0.3) ? 2 : rng.int(12);
  if (roll === 0) n["required"] = [...new Set([...((n["required"] as string[]) ?? []), rng.pick(KEYS)])];
  else if (roll === 1 && Array.isArray(n["required"])) n["required"] = rng.some(n["required"], 0.5);
  else if (roll === 2 && bounds.length > 0) {
    const key = rng.pick(bounds);
    if (rng.chance(0.5)) {
      n[SWAP[key]!] = n[key]!;
      Reflect.deleteProperty(n, key);
    } else n[key] = (n[key] as number) + rng.pick([-1, 1]);
  } else if (roll === 3) n[rng.pick(BOUNDS)] = rng.int(5) - 1;
  else if (roll === 4 && counts.length > 0) {
    const key = rng.pick(counts);
    n[key] = Math.max(0, (n[key] as number) + rng.pick([-1, 1]));
  } else if (roll === 5 && (Array.isArray(n["enum"]) || "const" in n)) {
    if ("const" in n) n["const"] = rng.pick(SCALARS);
    else
      n["enum"] = [...new Set([...(n["enum"] as Json[]), rng.pick(SCALARS)])].filter(() => rng.chance(0.8));
  } else if (roll === 6 && "type" in n) {
    const types = [...new Set([...[n["type"]].flat(), rng.pick(TYPES)])];
    n["type"] = rng.chance(0.5) || types.length === 1 ? rng.pick(TYPES) : types;
  } else if (roll === 7 && (Array.isArray(n["prefixItems"]) || Array.isArray(n["items"]))) {
    const key = Array.isArray(n["prefixItems"]) ? "prefixItems" : "items";
    const tuple = n[key] as Json[];
    n[key] = rng.chance(0.5) ? [...tuple, schema(rng, 2, style)] : tuple.slice(0, -1);
    if ((n[key] as Json[]).length === 0) Reflect.deleteProperty(n, key);
  } else if (roll === 8 && "properties" in n) n["additionalProperties"] = rng.chance(0.5) ? false : true;
  else if (roll === 9 && style === "07" && n["type"] === "string") {
    if ("format" in n) delete n["format"];
    else n["format"] = rng.pick(FORMATS);
  } else if (roll === 10 && keys.length > 0)
    Reflect.deleteProperty(n, rng.pick(keys.filter((k) => k !== "definitions")));
  else Object.assign(n, schema(rng, 2, style));
  if ("prefixItems" in n && "contains" in n) delete n["contains"];
  return after;
}

/** What the documents are biased to: the schemas' constants, their bounds ±1, their keys. */
function harvest(schemas: readonly Json[]) {
  const numbers = new Set<number>([0, 1, -1, 0.5]);
  const strings = new Set<string>(["", "a", "b", "ab", "ba", "abc", "2026-12-01", "x@y.io", "10.0.0.1"]);
  const keys = new Set<string>([...KEYS, "z"]);
  const constants: Json[] = [];
  const walk = (s: Json | undefined): void => {
    if (Array.isArray(s)) return s.forEach(walk);
    if (!isNode(s)) return;
    for (const [key, value] of Object.entries(s)) {
      if (BOUNDS.includes(key) || key === "multipleOf")
        for (const d of [-1, -0.5, 0, 0.5, 1]) numbers.add((value as number) + d);
      else if (key === "const") constants.push(value);
      else if (key === "enum") constants.push(...(value as Json[]));
      else if (key === "required") for (const k of value as string[]) keys.add(k);
      else if (key === "properties" || key === "dependentRequired" || key === "dependentSchemas")
        Object.keys(value as Node).forEach((k) => keys.add(k));
      if (key !== "const" && key !== "enum") walk(value);
    }
  };
  schemas.forEach(walk);
  for (const c of constants) if (typeof c === "number") numbers.add(c);
  for (const c of constants) if (typeof c === "string") strings.add(c);
  return { numbers: [...numbers], strings: [...strings], keys: [...keys], constants };
}

/**
 * Documents for a pair: random JSON values biased to the pair's constants, each guided (or not) by a
 * node of one side: objects with keys from the schemas, arrays of 0–3 items, numbers at bounds ±1.
 */
export function documents(rng: Rng, before: Json, after: Json, count: number): Json[] {
  const pool = harvest([before, after]);
  const definitions = (s: Json) => (isNode(s) && isNode(s["definitions"]) ? s["definitions"] : {});
  const defs = { ...definitions(before), ...definitions(after) };
  const scalar = (type: string): Json => {
    if (type === "null") return null;
    if (type === "boolean") return rng.chance(0.5);
    if (type === "integer") return Math.round(rng.pick(pool.numbers));
    if (type === "number") return rng.pick(pool.numbers);
    return rng.pick(pool.strings);
  };
  const value = (guide: Json | undefined, depth: number): Json => {
    let g = isNode(guide) ? guide : undefined;
    if (g && typeof g["$ref"] === "string" && rng.chance(0.5)) g = isNode(defs["d"]) ? defs["d"] : g;
    // A combinator's branch, or a conditional's, guides as well as the node itself.
    const branches = g
      ? ["allOf", "anyOf", "oneOf"].flatMap((k) => (Array.isArray(g![k]) ? (g![k] as Json[]) : []))
      : [];
    for (const k of ["if", "then", "else", "not"]) if (g && k in g) branches.push(g[k]!);
    if (branches.length > 0 && rng.chance(0.5)) return value(rng.pick(branches), depth);
    if (rng.chance(0.15)) g = undefined;
    if (g && (Array.isArray(g["enum"]) || "const" in g) && rng.chance(0.5))
      return structuredClone("const" in g ? g["const"]! : rng.pick(g["enum"] as Json[]));
    if (!g && pool.constants.length > 0 && rng.chance(0.2)) return structuredClone(rng.pick(pool.constants));
    const declared = g ? [g["type"] ?? []].flat() : [];
    const inferred =
      g && ("properties" in g || "required" in g)
        ? "object"
        : g && ("items" in g || "prefixItems" in g)
          ? "array"
          : undefined;
    const type =
      declared.length > 0 && rng.chance(0.85)
        ? (rng.pick(declared) as string)
        : (inferred ?? rng.pick(depth > 2 ? TYPES.slice(0, 5) : TYPES));
    if (type === "object" && depth <= 2) {
      const properties = g && isNode(g["properties"]) ? g["properties"] : {};
      const required = g && Array.isArray(g["required"]) ? (g["required"] as string[]) : [];
      const doc: Node = {};
      for (const key of pool.keys) {
        if (!rng.chance(required.includes(key) ? 0.75 : 0.4)) continue;
        doc[key] = value(properties[key] ?? g?.["additionalProperties"], depth + 1);
      }
      return doc;
    }
    if (type === "array" && depth <= 2) {
      const tuple =
        g && Array.isArray(g["prefixItems"] ?? g["items"])
          ? ((g["prefixItems"] ?? g["items"]) as Json[])
          : [];
      const rest = g && !Array.isArray(g["items"]) ? g["items"] : g?.["additionalItems"];
      return Array.from({ length: rng.int(4) }, (_, i) =>
        value(tuple[i] ?? rest ?? g?.["contains"], depth + 1),
      );
    }
    return scalar(type === "object" || type === "array" ? "string" : type);
  };
  return Array.from({ length: count }, (_, i) => value(i % 2 === 0 ? before : after, 0));
}
