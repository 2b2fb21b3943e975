import type { Validator } from "../../catalog/compiler.js";
import { formatPath, isObject, type Loc } from "../document.js";
import type { Change } from "../vocabulary.js";
import type { ProofContext } from "./proof-context.js";

/** Keywords that read each other are put back together. */
const GROUPS: ReadonlyArray<readonly string[]> = [
  ["maximum", "exclusiveMaximum"],
  ["minimum", "exclusiveMinimum"],
  ["items", "prefixItems", "additionalItems"],
  ["contains", "minContains", "maxContains"],
  ["if", "then", "else"],
  ["enum", "const"],
  ["contentEncoding", "contentMediaType", "contentSchema"],
];

const REST_KEYS = ["patternProperties", "additionalProperties", "unevaluatedProperties"];

const MAPS = new Set([
  "properties",
  "patternProperties",
  "dependencies",
  "dependentSchemas",
  "dependentRequired",
]);

type Json = Record<string, unknown>;

/**
 * The rejecting version with one change undone: at the place the change was found, its keyword (one
 * entry of a map keyword, one name of `required`) set back to what the accepting version has there.
 * Compiled by the engine, most precise first: a property that appears or disappears is undone alone,
 * then together with what validates the object's other keys (its schema may have moved there). Empty
 * when the change cannot be undone in place (it was found between schemas made for a proof).
 */
export function variantsOf(
  change: Change,
  direction: "backward" | "forward",
  context: ProofContext,
  cache: Map<string, Validator | undefined>,
): Validator[] {
  const site = change.site;
  // Stryker disable next-line ArrayDeclaration: a variant that is not a validator throws inside `safely` and proves nothing
  if (!site) return [];
  const [target, source, side] =
    direction === "backward" ? [site.new, site.old, context.new] : [site.old, site.new, context.old];
  const segments = relative(change.path, target) ?? relative(change.path, source);
  if (!segments) return [];
  const intoTarget = relative(change.path, target) !== undefined;
  const widths = segments[0] === "properties" && segments.length > 1 ? [false, true] : [false];
  const out: Validator[] = [];
  for (const wide of widths) {
    // A variant is a compiled copy of a whole version: the budget is checked before each one.
    context.deadline?.check();
    const key = `${direction}|${formatPath(target.doc, target.ptr)}|${segments.join("/")}|${intoTarget}|${wide}`;
    if (!cache.has(key))
      cache.set(key, compileEdit(target, source, side, segments, intoTarget, wide, context));
    const variant = cache.get(key);
    if (variant) out.push(variant);
  }
  return out;
}

function compileEdit(
  target: Loc,
  source: Loc,
  side: ProofContext["old"],
  segments: readonly string[],
  intoTarget: boolean,
  wide: boolean,
  context: ProofContext,
): Validator | undefined {
  const edited = edit(target, source, segments, intoTarget, wide);
  // Stryker disable next-line ConditionalExpression: compiling no document throws, and gives undefined below
  if (edited === undefined) return undefined;
  const main = target.doc.label === "";
  const json = main ? edited : side.root.doc.root;
  const refs = side.refs.map((ref) => (!main && ref.uri === target.doc.uri ? { ...ref, json: edited } : ref));
  try {
    return context.compiler.compileVersion({
      uri: side.uri,
      json,
      name: side.name,
      dialect: side.dialect,
      refs,
    });
    // Stryker disable next-line BlockStatement: an empty catch returns undefined too
  } catch {
    return undefined;
  }
}

/** The keyword path of `path` below the node at `loc`, or undefined when it is not below it. */
function relative(path: string, loc: Loc): string[] | undefined {
  const prefix = formatPath(loc.doc, loc.ptr);
  if (path === prefix) return [];
  if (!path.startsWith(`${prefix}/`)) return undefined;
  return path
    .slice(prefix.length + 1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** A copy of the target's document with the change undone, or undefined when the node is not there. */
function edit(
  target: Loc,
  source: Loc,
  segments: readonly string[],
  intoTarget: boolean,
  wide: boolean,
): unknown {
  const root = structuredClone(target.doc.root);
  const parts =
    // Stryker disable next-line ConditionalExpression,StringLiteral: "" splits into no parts after the first
    target.ptr === ""
      ? []
      : target.ptr
          .split("/")
          .slice(1)
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  // The node must really live at its pointer (merged nodes made for proofs do not).
  let original: unknown = target.doc.root;
  for (const part of parts)
    original = isObject(original) || Array.isArray(original) ? (original as Json)[part] : undefined;
  const here = original === undefined && target.node === true ? true : original;
  if (here !== target.node) return undefined;
  const replaced = undo(structuredClone(target.node), source.node, segments, intoTarget, wide);
  if (parts.length === 0) return replaced;
  let parent: unknown = root;
  for (const part of parts.slice(0, -1)) parent = (parent as Json)[part];
  if (typeof parent !== "object" || parent === null) return undefined;
  (parent as Json)[parts[parts.length - 1] as string] = replaced;
  return root;
}

function undo(
  target: unknown,
  source: unknown,
  segments: readonly string[],
  intoTarget: boolean,
  wide: boolean,
): unknown {
  const [keyword, entry] = segments;
  if (keyword === undefined || !isObject(target)) return structuredClone(source ?? true);
  const node = target as Json;
  const from: Json = isObject(source) ? (source as Json) : {};
  const put = (into: Json, key: string, value: unknown): void => {
    if (value === undefined) Reflect.deleteProperty(into, key);
    else into[key] = structuredClone(value);
  };
  if (keyword === "required" && entry !== undefined && intoTarget && Array.isArray(node["required"])) {
    node["required"] = (node["required"] as unknown[]).filter((_, i) => String(i) !== entry);
  } else if (MAPS.has(keyword) && entry !== undefined) {
    const map: Json = isObject(node[keyword]) ? { ...(node[keyword] as Json) } : {};
    const other = isObject(from[keyword]) ? (from[keyword] as Json)[entry] : undefined;
    put(map, entry, other);
    node[keyword] = map;
    // A property that appears or disappears moves between its own schema and what validates other
    // keys; undoing it puts back how the other version validates undeclared keys too.
    if (wide) for (const key of REST_KEYS) put(node, key, from[key]);
  } else {
    for (const key of GROUPS.find((group) => group.includes(keyword)) ?? [keyword]) put(node, key, from[key]);
  }
  return node;
}
