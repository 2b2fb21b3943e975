import { NO_DEADLINE, type Deadline } from "../deadline.js";
import type { Loc } from "../document.js";
import type { Model } from "../model.js";
import { ARRAY, BOOLEAN, maskOfType, NULL, NUMBER, OBJECT, STRING } from "../typeset.js";
import { declaredValues, includesValue, passesLocal } from "../values.js";
import type { View } from "../view.js";
import { arrays } from "./arrays.js";
import { objects } from "./composite.js";
import { numbers, strings } from "./scalars.js";
import { expand, hintsOf, type Scope } from "./scope.js";

const PER_PLACE = 24;
const MAX_DEPTH = 7;
const WORK = 4000;

/**
 * Generates documents that one schema (`accept`) should accept, steered toward the edges of another
 * (`reject`): a base document with the least that is required, and variations that change one place
 * at a time. Nothing here is trusted: every document is checked with the engine before it is used.
 */
export class Generator {
  readonly #memo = new Map<string, unknown[]>();
  readonly #ids = new WeakMap<object, number>();
  #nextId = 1;
  #work = 0;

  constructor(
    readonly model: Model,
    private readonly deadline: Pick<Deadline, "check"> = NO_DEADLINE,
  ) {}

  /** Candidate witnesses: valid under `accept` as far as generation can tell, first the smallest. */
  documents(accept: Loc, reject: Loc, limit = 4000): unknown[] {
    return this.values([accept], [reject], 0, limit);
  }

  /**
   * Values for one place of a document, where every schema of `accept` applies and `reject` holds the
   * other version's schemas for the same place. The first value is the plainest one.
   */
  values(accept: readonly Loc[], reject: readonly Loc[], depth: number, limit = PER_PLACE): unknown[] {
    if (depth > MAX_DEPTH) return [];
    this.deadline.check();
    const key = `${accept.map((l) => this.#id(l)).join(",")}|${reject.map((l) => this.#id(l)).join(",")}|${depth}|${limit}`;
    const known = this.#memo.get(key);
    if (known) return known;
    // Wide recursive schemas could ask for a great many places; past a budget only plain values remain.
    const plain = ++this.#work > WORK;
    const values = this.#generate(accept, reject, depth, plain ? 1 : limit, plain);
    this.#memo.set(key, values);
    return values;
  }

  #id(loc: Loc): string {
    const node = this.model.deref(loc).node;
    if (typeof node !== "object" || node === null) return String(node);
    let id = this.#ids.get(node);
    // Stryker disable next-line UpdateOperator: counting down gives distinct ids just as well
    if (id === undefined) this.#ids.set(node, (id = this.#nextId++));
    return String(id);
  }

  #generate(
    accept: readonly Loc[],
    reject: readonly Loc[],
    depth: number,
    limit: number,
    plain: boolean,
  ): unknown[] {
    // Stryker disable next-line ArrayDeclaration: hintsOf skips whatever is not a schema
    const hints = hintsOf(this.model, plain ? [] : reject);
    // Each way through the choices fills its own list, and the lists take turns: the first branch of
    // a `oneOf` alone could otherwise fill the whole limit, and a break in another never be tried.
    const lists: Values[] = [];
    for (const scope of expand(this.model, accept)) this.scope(scope, hints.views, depth, add(lists, limit));
    if (depth < 4) {
      for (const steer of hints.steers) {
        for (const scope of expand(this.model, [...accept, ...steer]).slice(0, 3)) {
          this.scope(scope, hints.views, depth, add(lists, limit));
        }
      }
    }
    return interleave(lists, limit);
  }

  private scope(scope: Scope, hints: readonly View[], depth: number, out: Values): void {
    const { views } = scope;
    let mask = ~0;
    for (const [i, view] of views.entries()) {
      mask &= maskOfType(view.type) ?? ~0;
      mask &= this.model.types(scope.locs[i] as Loc);
    }
    if (mask === 0) return;
    const fits = (value: unknown): boolean => views.every((view) => passesLocal(view, value));
    const finite = views.map(declaredValues).filter((v): v is readonly unknown[] => v !== undefined);
    if (finite.length > 0) {
      const [first, ...rest] = finite;
      // Stryker disable next-line ArrayDeclaration: `finite` is not empty here, so `first` is defined
      const allowed = (first ?? []).filter(
        (value) => rest.every((set) => includesValue(set, value)) && fits(value),
      );
      // A `not` that names values (`not: {enum: [...]}`) rejects them: they go last.
      const forbidden = views.flatMap((view) => {
        const not = view.not && declaredValues(this.model.view(this.model.deref(view.not)));
        return not ? [not] : [];
      });
      const named = (value: unknown) => forbidden.some((set) => includesValue(set, value));
      const ordered = steeredValues(allowed, hints);
      for (const value of [...ordered.filter((v) => !named(v)), ...ordered.filter(named)]) out.add(value);
      return;
    }
    if (mask & NULL) out.add(null);
    if (mask & BOOLEAN) out.add(false).add(true);
    // Stryker disable next-line ConditionalExpression: numbers() keeps only the kinds of number in the mask
    if (mask & NUMBER) for (const n of numbers(views, hints, mask).slice(0, 16)) out.add(n);
    if (mask & STRING) for (const s of strings(views, hints).slice(0, 16)) out.add(s);
    if (mask & OBJECT) for (const o of objects(this, scope, hints, depth)) if (fits(o)) out.add(o);
    if (mask & ARRAY) for (const a of arrays(this, scope, hints, depth)) if (fits(a)) out.add(a);
  }
}

/**
 * A finite set of values in the order to try them: the plainest (first declared) first, then those
 * that a finite set of the other version leaves out (an enum value added past the first few dozen
 * would never be tried otherwise), then the rest.
 */
export function steeredValues(values: readonly unknown[], hints: readonly View[]): unknown[] {
  const sets = hints.map(declaredValues).filter((v): v is readonly unknown[] => v !== undefined);
  const outside = (value: unknown) => sets.some((set) => !includesValue(set, value));
  const [head, ...tail] = values;
  if (head === undefined) return [];
  return [head, ...tail.filter(outside), ...tail.filter((value) => !outside(value))];
}

function add(lists: Values[], limit: number): Values {
  const list = new Values(limit);
  lists.push(list);
  return list;
}

/**
 * Half the limit from the first list that has values (the plainest way through, which most
 * variations of one place belong to), then the first value of each list, the second of each, and so
 * on: distinct, at most `limit`.
 */
function interleave(lists: readonly Values[], limit: number): unknown[] {
  const out = new Values(limit);
  const first = lists.find((list) => list.list.length > 0)?.list ?? [];
  for (const value of first.slice(0, Math.ceil(limit / 2))) out.add(value);
  const longest = Math.max(0, ...lists.map((list) => list.list.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.list.length) out.add(list.list[i]);
  return out.list;
}

/** A bounded list of distinct values, in the order they were found. */
class Values {
  readonly list: unknown[] = [];
  readonly #seen = new Set<string>();

  constructor(private readonly limit: number) {}

  add(value: unknown): this {
    if (this.list.length >= this.limit) return this;
    const key = JSON.stringify(value);
    if (!this.#seen.has(key)) {
      this.#seen.add(key);
      this.list.push(value);
    }
    return this;
  }
}
