import { isObject, type Loc } from "../document.js";
import type { Model } from "../model.js";
import type { View } from "../view.js";

/**
 * One way a document can satisfy a conjunction of schemas: every view that applies at once (`allOf`
 * and `$ref` inlined) after one branch of each `anyOf`, `oneOf` and `if`/`then`/`else` was taken.
 */
export interface Scope {
  readonly views: readonly View[];
  readonly locs: readonly Loc[];
}

interface Choice {
  readonly owner: object;
  readonly keyword: string;
  readonly options: readonly (readonly Loc[])[];
}

const MAX_SCOPES = 12;

/**
 * The ways to satisfy all of `roots`: the first branch of every choice, then each other branch of one
 * choice at a time (a line through the combinations, not all of them). Empty when a `false` applies.
 */
export function expand(model: Model, roots: readonly Loc[], depth = 0, picks: Picks = new Map()): Scope[] {
  const views: View[] = [];
  const locs: Loc[] = [];
  const choices: Choice[] = [];
  const queue = [...roots];
  const seen = new Set<unknown>();
  while (queue.length > 0) {
    const loc = model.deref(queue.shift() as Loc);
    if (loc.node === false) return [];
    if (!isObject(loc.node) || seen.has(loc.node)) continue;
    seen.add(loc.node);
    const view = model.view(loc);
    views.push(view);
    locs.push(loc);
    // Stryker disable next-line ArrayDeclaration: a queued non-schema is skipped like an absent one
    queue.push(...view.allOf, ...(view.ref ? [view.ref] : []));
    // Stryker disable next-line ArrayDeclaration: a bogus entry is one more choice with one option that queues no schema
    const options: Array<[string, (readonly Loc[])[]]> = [];
    // Stryker disable next-line StringLiteral: the keyword only tells a view's choices apart; any distinct name does
    if (view.anyOf) options.push(["anyOf", view.anyOf.map((b) => [b])]);
    // Stryker disable next-line StringLiteral: the keyword only tells a view's choices apart; any distinct name does
    if (view.oneOf) options.push(["oneOf", view.oneOf.map((b) => [b])]);
    if (view.if) {
      const then = view.then ? [view.if, view.then] : [view.if];
      // Stryker disable next-line StringLiteral,ArrayDeclaration: a distinct name does as well; a bogus else branch queues no schema
      options.push(["if", [then, view.else ? [view.else] : []]]);
    }
    for (const [keyword, list] of options) {
      const pick = picks.get(view.raw)?.get(keyword);
      // Stryker disable next-line ArrayDeclaration: a pick is always one of the choice's options
      if (pick !== undefined) queue.push(...(list[pick] ?? []));
      else choices.push({ owner: view.raw, keyword, options: list });
    }
  }
  if (choices.length === 0) return [{ views, locs }];
  const combos: Picks[] = [];
  const base = choices.reduce((p, choice) => pick(p, choice, 0), picks);
  combos.push(base);
  // Several conditionals side by side (`allOf` of `if`/`then` per case) rarely hold together: their
  // `if`s test one property for different values. A document that takes every `else`, then one that
  // takes one `then` at a time, is what such a schema mostly sees.
  const conditionals = choices.filter((choice) => choice.keyword === "if");
  if (conditionals.length > 1) {
    const otherwise = conditionals.reduce((p, choice) => pick(p, choice, 1), base);
    combos.push(otherwise);
    if (depth < 3) for (const choice of conditionals) combos.push(pick(otherwise, choice, 0));
  }
  if (depth < 3) {
    for (const choice of choices) {
      for (let i = 1; i < choice.options.length; i++) combos.push(pick(base, choice, i));
    }
  }
  const out: Scope[] = [];
  for (const combo of combos) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the slice below adds nothing once 12 are found; this only stops early
    if (out.length >= MAX_SCOPES) break;
    out.push(...expand(model, roots, depth + 1, combo).slice(0, MAX_SCOPES - out.length));
  }
  return out;
}

/** Which branch each choice took, by the schema object that owns it and the keyword. */
type Picks = ReadonlyMap<object, ReadonlyMap<string, number>>;

function pick(picks: Picks, choice: Choice, index: number): Picks {
  const next = new Map(picks);
  next.set(choice.owner, new Map([...(picks.get(choice.owner) ?? []), [choice.keyword, index]]));
  return next;
}

/**
 * Every view a schema can bring to bear at one place, through any branch: what a generated document
 * may want to stay inside, or step just outside of. `steers` are schemas worth satisfying on purpose:
 * what a `not` forbids, what an `if` tests, and two `oneOf` branches at once.
 */
export function hintsOf(model: Model, roots: readonly Loc[]): { views: View[]; steers: Loc[][] } {
  const views: View[] = [];
  const steers: Loc[][] = [];
  const queue = [...roots];
  const seen = new Set<unknown>();
  while (queue.length > 0 && views.length < 32) {
    const loc = model.deref(queue.shift() as Loc);
    if (!isObject(loc.node) || seen.has(loc.node)) continue;
    seen.add(loc.node);
    const view = model.view(loc);
    views.push(view);
    // Stryker disable next-line ArrayDeclaration: a queued non-schema is skipped like an absent one
    queue.push(...view.allOf, ...(view.ref ? [view.ref] : []), ...(view.anyOf ?? []), ...(view.oneOf ?? []));
    for (const branch of [view.then, view.else]) if (branch) queue.push(branch);
    if (view.not) steers.push([view.not]);
    if (view.if) steers.push([view.if]);
    // Stryker disable next-line ArrayDeclaration: one branch makes no pair
    const branches = view.oneOf ?? [];
    // Stryker disable next-line EqualityOperator,ConditionalExpression: the inner loop stops at 12 too and pairs nothing past the last branch
    for (let i = 0; i < branches.length && steers.length < 12; i++) {
      for (let j = i + 1; j < branches.length && steers.length < 12; j++) {
        steers.push([branches[i] as Loc, branches[j] as Loc]);
      }
    }
  }
  return { views, steers };
}
