import { child, isObject, type Loc } from "../document.js";
import type { Model } from "../model.js";
import type { Generator } from "./generate.js";

/** How deep (schema nodes) the way from the root to a change is looked for, and how many are kept. */
const MAX_NODES = 20_000;
const LOCAL_VALUES = 24;
const ROUTES = 4;

/** One step of a document: into a property (its name) or an array item (its position). */
type Step = { readonly key: string } | { readonly index: number };

/** A way from the root schema to a node: the instance steps it takes, and the schema of each level. */
interface Route {
  readonly steps: readonly Step[];
  /** For each step, the schema node that holds it (properties, items, …), the container's schema. */
  readonly holders: readonly Loc[];
}

const IN_PLACE = ["allOf", "anyOf", "oneOf"];
const SINGLE_IN_PLACE = ["then", "else", "if", "not"];

/**
 * The ways the instance reaches `target` from `root`: properties, items (tuple and rest), additional
 * and pattern properties step into the document; `$ref`, `allOf`/`anyOf`/`oneOf`, `then`/`else` and
 * definitions reached through them stay in place. Breadth first, so the shortest ways come first.
 */
function routesTo(root: Loc, target: unknown): Route[] {
  const found: Route[] = [];
  const queue: { loc: Loc; route: Route }[] = [{ loc: root, route: { steps: [], holders: [] } }];
  const seen = new Set<unknown>();
  for (let i = 0; i < queue.length && i < MAX_NODES && found.length < ROUTES; i++) {
    const { loc, route } = queue[i]!;
    const node = loc.node;
    if (node === target) {
      found.push(route);
      continue;
    }
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    const inPlace = (next: Loc) => queue.push({ loc: next, route });
    const into = (next: Loc, step: Step) =>
      queue.push({ loc: next, route: { steps: [...route.steps, step], holders: [...route.holders, loc] } });
    for (const key of ["$ref", "$recursiveRef", "$dynamicRef"]) {
      const ref = node[key];
      if (typeof ref !== "string") continue;
      try {
        inPlace(loc.doc.space.resolve(loc, ref));
      } catch {
        // A `$ref` that resolves nowhere leads nowhere.
      }
    }
    for (const key of IN_PLACE) {
      const branches = node[key];
      if (Array.isArray(branches)) branches.forEach((b, j) => inPlace(child(loc, b, key, String(j))));
    }
    for (const key of SINGLE_IN_PLACE) if (key in node) inPlace(child(loc, node[key], key));
    const properties = node["properties"];
    if (isObject(properties)) {
      for (const [name, schema] of Object.entries(properties))
        into(child(loc, schema, "properties", name), { key: name });
    }
    const patterns = node["patternProperties"];
    if (isObject(patterns)) {
      for (const [pattern, schema] of Object.entries(patterns))
        into(child(loc, schema, "patternProperties", pattern), { key: sampleKey(pattern) });
    }
    if (isObject(node["additionalProperties"]))
      into(child(loc, node["additionalProperties"], "additionalProperties"), { key: "x" });
    const items = node["items"];
    if (Array.isArray(items)) items.forEach((s, j) => into(child(loc, s, "items", String(j)), { index: j }));
    else if (items !== undefined) into(child(loc, items, "items"), { index: 0 });
    const prefix = node["prefixItems"];
    if (Array.isArray(prefix))
      prefix.forEach((s, j) => into(child(loc, s, "prefixItems", String(j)), { index: j }));
    if (isObject(node["additionalItems"])) {
      const after = Array.isArray(items) ? items.length : 0;
      into(child(loc, node["additionalItems"], "additionalItems"), { index: after });
    }
  }
  return found;
}

/** A name a pattern accepts, for the simplest patterns (`^x-`, `^[a-z]+$`); else one it may well accept. */
function sampleKey(pattern: string): string {
  const literal = /^\^?([A-Za-z0-9_$@./-]+)/.exec(pattern);
  return literal ? literal[1]! : "a";
}

/**
 * Documents that put a value of `site` (generated from the accepting version's schema at the change,
 * steered toward the rejecting one's) where the change is, inside the plainest document of every
 * level on the way from the root: a witness for a change deep in a large schema, which the
 * generator's document-wide search (one change at a time, a few thousand documents in all) may never
 * reach. Only candidates: each is checked with the engine like any other.
 */
export function targetedDocuments(
  model: Model,
  generator: Generator,
  root: Loc,
  site: { readonly accept: Loc; readonly reject: Loc },
): unknown[] {
  const target = model.deref(site.accept).node;
  const routes = routesTo(root, target);
  if (routes.length === 0) return [];
  const locals = generator.values([site.accept], [site.reject], 0, LOCAL_VALUES);
  const out: unknown[] = [];
  for (const route of routes) {
    const plain = route.holders.map((holder) => generator.values([holder], [], 0, 1)[0]);
    for (const local of locals) out.push(embed(route.steps, plain, local));
  }
  return out;
}

/** `value` at the end of `steps`, each level the plainest document there with that one place set. */
function embed(steps: readonly Step[], plain: readonly unknown[], value: unknown): unknown {
  let inner = value;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    const base = plain[i];
    if ("key" in step) {
      const object = isObject(base) ? { ...base } : {};
      object[step.key] = inner;
      inner = object;
    } else {
      const array = Array.isArray(base) ? [...(base as unknown[])] : [];
      while (array.length < step.index) array.push(array[0] ?? null);
      array[step.index] = inner;
      inner = array;
    }
  }
  return inner;
}
