import { child, isObject, type Loc } from "../document.js";
import type { Model } from "../model.js";
import type { Generator } from "./generate.js";

/** How deep (schema nodes) the way from the root to a change is looked for, and how many are kept. */
const MAX_NODES = 20_000;
const LOCAL_VALUES = 24;
const ROUTES = 4;
/** How many of the plainest values of a level are looked through for one of the kind a step needs. */
const PLAIN = 64;
/** How many of a change's values get their neighbours varied. */
const PINNED = 6;

/** One step of a document: into a property (its name) or an array item (its position). */
type Step = { readonly key: string } | { readonly index: number };

/** A way from the root schema to a node: the instance steps it takes, and the schema of each level. */
interface Route {
  readonly steps: readonly Step[];
  /** For each step, the schema node that holds it (properties, items, …), the container's schema. */
  readonly holders: readonly Loc[];
  /**
   * For each step, where the container's level began (the root, or the schema the previous step
   * led to): it applies together with the holder, which `$ref`s and branches reached in place.
   */
  readonly entries: readonly Loc[];
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
  const queue: { loc: Loc; entry: Loc; route: Route }[] = [
    { loc: root, entry: root, route: { steps: [], holders: [], entries: [] } },
  ];
  const seen = new Set<unknown>();
  for (let i = 0; i < queue.length && i < MAX_NODES && found.length < ROUTES; i++) {
    const { loc, entry, route } = queue[i]!;
    const node = loc.node;
    if (node === target) {
      found.push(route);
      continue;
    }
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    const inPlace = (next: Loc) => queue.push({ loc: next, entry, route });
    const into = (next: Loc, step: Step) =>
      queue.push({
        loc: next,
        entry: next,
        route: {
          steps: [...route.steps, step],
          holders: [...route.holders, loc],
          entries: [...route.entries, entry],
        },
      });
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
  accepts: (document: unknown) => boolean = () => true,
  rejectRoot?: Loc,
): unknown[] {
  // A change inside a `not` is a change of the values at the `not`'s place, with the sides swapped:
  // values are made there, where the document has them.
  site = { accept: outsideNot(site.accept), reject: outsideNot(site.reject) };
  const target = model.deref(site.accept).node;
  const routes = routesTo(root, target);
  if (routes.length === 0) return [];
  const locals = generator.values([site.accept], [site.reject], 0, LOCAL_VALUES);
  // The other version's ways to the same place: its schemas there steer the neighbours.
  const theirs = rejectRoot ? routesTo(rejectRoot, model.deref(site.reject).node) : [];
  const out: unknown[] = [];
  for (const route of routes) {
    // Each level's plainest value of the kind its step needs (an object for a property, an array for
    // an item: a schema without `type` often has `null` as its plainest value), where both the
    // level's own schema and the branch the way took apply; the branch's alone when none is found.
    const plain = route.holders.map((holder, i) => {
      const step = route.steps[i]!;
      const fits = (value: unknown) => ("key" in step ? isObject(value) : Array.isArray(value));
      const entry = route.entries[i]!;
      // Stryker disable next-line ConditionalExpression,ArrayDeclaration: where the level began at the branch itself, the fallback below gives the same values
      const both = entry.node === holder.node ? [] : generator.values([entry, holder], [], 0, PLAIN);
      return both.find(fits) ?? generator.values([holder], [], 0, PLAIN).find(fits);
    });
    const embedded = locals.map((local) => embed(route.steps, plain, local));
    out.push(...embedded);
    // Values the accepting version takes in the plainest place are the ones worth varying around.
    const taken = locals.filter((_, i) => accepts(embedded[i])).slice(0, PINNED);
    const same = theirs.find((r) => JSON.stringify(r.steps) === JSON.stringify(route.steps));
    const last = route.steps.length - 1;
    const hints = same && last >= 0 ? [same.entries[last]!, same.holders[last]!] : [];
    out.push(...neighbours(generator, route, plain, taken, hints));
  }
  return out;
}

/**
 * The same values with the object that holds them varied one other place at a time: a value the
 * change rejects may be accepted by a branch of the other version the plainest neighbours happen to
 * fit (a binding type that became its own `oneOf` branch still fits it with `"direction": "in"`, not
 * with `"inout"`). The value is pinned with an `enum` of itself beside the level's schemas.
 */
function neighbours(
  generator: Generator,
  route: Route,
  plain: readonly unknown[],
  locals: readonly unknown[],
  hints: readonly Loc[],
) {
  const last = route.steps.length - 1;
  const step = route.steps[last];
  if (step === undefined || !("key" in step)) return [];
  const entry = route.entries[last]!;
  const holder = route.holders[last]!;
  const out: unknown[] = [];
  for (const local of locals) {
    const pin = { type: "object", properties: { [step.key]: { enum: [local] } }, required: [step.key] };
    const pinned: Loc = { node: pin, ptr: entry.ptr, doc: entry.doc };
    // Varied on their own, and steered by the other version's schemas there (which name keys of
    // their own): each way finds neighbours the other crowds out.
    const steered = hints.length > 0 ? generator.values([entry, holder, pinned], hints, 0, LOCAL_VALUES) : [];
    const plainly = generator.values([entry, holder, pinned], [], 0, LOCAL_VALUES);
    for (const object of [...plainly, ...steered].filter(isObject))
      out.push(embed(route.steps.slice(0, last), plain, object));
  }
  return out;
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependencies"]);

/**
 * The schema whose `not` holds `loc` (the innermost `not` on its pointer), or `loc` itself when it is
 * in no `not` or does not live at its pointer (a node made for a proof).
 */
export function outsideNot(loc: Loc): Loc {
  const segments = loc.ptr.split("/").slice(1);
  let at = -1;
  segments.forEach((segment, i) => {
    if (segment === "not" && !SCHEMA_MAPS.has(segments[i - 1] ?? "")) at = i;
  });
  if (at < 0) return loc;
  let node: unknown = loc.doc.root;
  let reached: unknown = loc.doc.root;
  for (const [i, segment] of segments.entries()) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    reached =
      isObject(reached) || Array.isArray(reached) ? (reached as Record<string, unknown>)[key] : undefined;
    if (i === at - 1) node = reached;
  }
  if (at === 0) node = loc.doc.root;
  if (reached !== loc.node) return loc;
  const ptr = segments
    .slice(0, at)
    .map((s) => `/${s}`)
    .join("");
  return { node, ptr, doc: loc.doc };
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
