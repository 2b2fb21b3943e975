import { compilePattern, type PatternMatcher } from "../catalog/regexp.js";

/**
 * Which subschemas of a JSON Schema apply at one place of a document, for choosing placeholders that
 * still pass. A deliberately small reading of the spec: `properties`, `patternProperties`,
 * `additionalProperties`, `prefixItems`, `items` (both forms), `additionalItems`, `allOf`, the first
 * `anyOf`/`oneOf` branch that fits the value's type, and `$ref` within the same document. Remote refs,
 * anchors, `if`/`then`/`else` and `not` are not followed.
 */

type SchemaObject = Readonly<Record<string, unknown>>;

/** The schemas that apply at one place, with the root their local `$ref`s resolve against. */
export interface SchemaScope {
  readonly root: unknown;
  readonly schemas: readonly SchemaObject[];
}

/** The most `$ref`s followed in a row; a cycle stops here instead of looping. */
const MAX_REF_DEPTH = 32;

export const EMPTY_SCOPE: SchemaScope = { root: undefined, schemas: [] };

function isObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON type of a value in the schema's vocabulary. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether a schema's `type`, `const` or `enum` admits values of this JSON type (unknown: yes). */
function admitsType(schema: SchemaObject, type: string): boolean {
  const declared = schema["type"];
  if (declared !== undefined) {
    const types = Array.isArray(declared) ? declared : [declared];
    return types.includes(type) || (type === "integer" && types.includes("number"));
  }
  if ("const" in schema) return jsonTypeOf(schema["const"]) === type;
  const values = schema["enum"];
  if (Array.isArray(values)) return values.some((v) => jsonTypeOf(v) === type);
  return true;
}

function resolveRef(root: unknown, ref: string): unknown {
  const hash = ref.indexOf("#");
  if (hash < 0) return undefined;
  const base = ref.slice(0, hash);
  if (base !== "" && !(isObject(root) && (root["$id"] === base || root["id"] === base))) return undefined;
  const fragment = ref.slice(hash + 1);
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  let node = root;
  for (const raw of fragment === "" ? [] : fragment.slice(1).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

function expand(schema: unknown, root: unknown, value: unknown, into: SchemaObject[], depth: number): void {
  if (!isObject(schema) || depth > MAX_REF_DEPTH) return;
  into.push(schema);
  const ref = schema["$ref"];
  if (typeof ref === "string") expand(resolveRef(root, ref), root, value, into, depth + 1);
  const all = schema["allOf"];
  if (Array.isArray(all)) for (const branch of all) expand(branch, root, value, into, depth + 1);
  const type = jsonTypeOf(value);
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    // Merging every branch could combine limits no single branch has; one branch that fits the
    // original value's type is what a placeholder can aim at.
    const fitting = branches.find((branch) => {
      const expanded: SchemaObject[] = [];
      expand(branch, root, value, expanded, depth + 1);
      return expanded.every((s) => admitsType(s, type));
    });
    expand(fitting, root, value, into, depth + 1);
  }
}

/** The scope of a document's root under a schema (none: an empty scope). */
export function rootScope(schema: unknown, value: unknown): SchemaScope {
  if (schema === undefined) return EMPTY_SCOPE;
  const schemas: SchemaObject[] = [];
  expand(schema, schema, value, schemas, 0);
  return { root: schema, schemas };
}

/** Each `patternProperties` object's patterns, compiled once for as long as its schema lives. */
const compiledPatterns = new WeakMap<object, Map<string, PatternMatcher | null>>();

/**
 * Whether a `patternProperties` pattern matches a member name of a document, which traffic writes:
 * on the engine validation uses (RE2 unless the native engine cannot backtrack on the pattern). A
 * pattern only a backtracking engine can run (lookaround, backreferences) is no match here: the
 * corpus has no time budget, and the scope only picks placeholders, which may then miss that
 * subschema's limits, as they miss those of the keywords this reading does not follow.
 */
function matches(patterns: object, pattern: string, key: string): boolean {
  let compiled = compiledPatterns.get(patterns);
  if (!compiled) compiledPatterns.set(patterns, (compiled = new Map()));
  let matcher = compiled.get(pattern);
  if (matcher === undefined) {
    const linear = compilePattern(pattern);
    matcher = linear?.linear ? linear.matcher : null;
    compiled.set(pattern, matcher);
  }
  return matcher !== null && matcher.test(key);
}

/** The scope of the member `key` of an object in `scope`, whose value is `value`. */
export function memberScope(scope: SchemaScope, key: string, value: unknown): SchemaScope {
  if (scope.schemas.length === 0) return EMPTY_SCOPE;
  const direct: unknown[] = [];
  for (const schema of scope.schemas) {
    let matched = false;
    const properties = schema["properties"];
    if (isObject(properties) && Object.hasOwn(properties, key)) {
      direct.push(properties[key]);
      matched = true;
    }
    const patterns = schema["patternProperties"];
    if (isObject(patterns)) {
      for (const [pattern, sub] of Object.entries(patterns)) {
        if (matches(patterns, pattern, key)) {
          direct.push(sub);
          matched = true;
        }
      }
    }
    if (!matched && isObject(schema["additionalProperties"])) direct.push(schema["additionalProperties"]);
  }
  return scopeOfAll(scope.root, direct, value);
}

/** The scope of element `index` of an array in `scope`, whose value is `value`. */
export function elementScope(scope: SchemaScope, index: number, value: unknown): SchemaScope {
  if (scope.schemas.length === 0) return EMPTY_SCOPE;
  const direct: unknown[] = [];
  for (const schema of scope.schemas) {
    const prefix = schema["prefixItems"];
    const items = schema["items"];
    if (Array.isArray(prefix) && index < prefix.length) direct.push(prefix[index]);
    else if (Array.isArray(items))
      direct.push(index < items.length ? items[index] : schema["additionalItems"]);
    else if (items !== undefined) direct.push(items);
  }
  return scopeOfAll(scope.root, direct, value);
}

function scopeOfAll(root: unknown, direct: readonly unknown[], value: unknown): SchemaScope {
  const schemas: SchemaObject[] = [];
  for (const schema of direct) expand(schema, root, value, schemas, 0);
  return { root, schemas };
}
